"""Tests of the fake HIBP server: run it as a real process and talk HTTP to it.

python3 -m unittest discover -s tools/fake-hibp -v
"""

import hashlib
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "fake_hibp.py")
sys.path.insert(0, HERE)
import fake_hibp  # noqa: E402  (for the MD4 vectors and constants only)

KEY = "1" * 32
BLOCKED_KEY = "2" * 32
SLOW_KEY = "3" * 32
TEST_KEY = "0" * 32
UA = "pwnvault-tests/1.0"
TEST_DOMAIN = "hibp-integration-tests.com"


class FakeServer:
    """A fake_hibp.py process on a free port, found through its port file."""

    def __init__(self, *args):
        self.folder = tempfile.TemporaryDirectory()
        self.port_file = os.path.join(self.folder.name, "port")
        self.process = subprocess.Popen(
            [sys.executable, SERVER, "--port", "0", "--port-file", self.port_file, *args],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.banner = self.process.stderr.readline()
        if not self.banner.startswith("fake-hibp listening on"):
            rest = self.process.stderr.read()
            self.process.wait(5)
            self.process.stderr.close()
            self.folder.cleanup()
            raise RuntimeError("server did not start: %s%s" % (self.banner, rest))
        with open(self.port_file) as f:
            self.port = int(f.read())
        # Keep draining stderr so a chatty server never blocks on a full pipe.
        self.drain = threading.Thread(target=self.process.stderr.read, daemon=True)
        self.drain.start()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(10)
        self.drain.join(5)
        self.process.stderr.close()
        self.folder.cleanup()


class Response:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body

    def json(self):
        return json.loads(self.body.decode("utf-8"))


def request(port, path, headers=None, method="GET", body=None, timeout=10, connection=None):
    own = connection is None
    conn = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        data = r.read()
        return Response(r.status, {k.lower(): v for k, v in r.getheaders()}, data)
    finally:
        if own:
            conn.close()


def quote(account):
    return urllib.parse.quote(account, safe="@")


class ServerTestCase(unittest.TestCase):
    """One server for the class, reset (log, stats, faults, buckets and config) before each test."""

    server_args = ("--quiet", "--rpm", "0", "--key", KEY, "--key", BLOCKED_KEY + ":blocked",
                   "--key", SLOW_KEY + ":6")

    @classmethod
    def setUpClass(cls):
        cls.server = FakeServer(*cls.server_args)
        cls.port = cls.server.port

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def setUp(self):
        self.assertEqual(self.control("POST", "reset", {"config": True, "data": True}).status, 200)

    def get(self, path, key=KEY, ua=UA, extra=None, **kwargs):
        headers = {}
        if ua is not None:
            headers["User-Agent"] = ua
        if key is not None:
            headers["hibp-api-key"] = key
        headers.update(extra or {})
        return request(self.port, path, headers, **kwargs)

    def account(self, service, account, query="", **kwargs):
        return self.get("/api/v3/%s/%s%s" % (service, quote(account), query), **kwargs)

    def breaches_of(self, account, key=KEY, query="?truncateResponse=false"):
        r = self.account("breachedaccount", account, query, key=key)
        return r.json() if r.status == 200 else r.status

    def control(self, method, name, payload=None):
        body = None if payload is None else json.dumps(payload).encode()
        return request(self.port, "/__control/" + name, {"Content-Type": "application/json"}, method, body)

    def configure(self, **settings):
        r = self.control("POST", "config", settings)
        self.assertEqual(r.status, 200, r.body)
        return r.json()


class CommandLineTests(unittest.TestCase):
    def test_port_file_banner_and_clean_exit_on_sigterm(self):
        server = FakeServer("--quiet")
        try:
            self.assertEqual(server.banner.strip(), "fake-hibp listening on http://127.0.0.1:%d" % server.port)
            self.assertEqual(request(server.port, "/api/v3/dataclasses", {"User-Agent": UA}).status, 200)
            server.process.send_signal(signal.SIGTERM)
            self.assertEqual(server.process.wait(10), 0)
            self.assertFalse(os.path.exists(server.port_file), "the port file outlived the server")
            self.assertEqual([n for n in os.listdir(server.folder.name)], [], "a temporary file was left")
        finally:
            server.stop()

    def test_sigint_exits_cleanly(self):
        server = FakeServer("--quiet")
        try:
            server.process.send_signal(signal.SIGINT)
            self.assertEqual(server.process.wait(10), 0)
        finally:
            server.stop()

    def test_listens_on_loopback_only(self):
        server = FakeServer("--quiet")
        try:
            out = subprocess.run(["ss", "-ltnH", "sport = :%d" % server.port], capture_output=True, text=True)
            if out.returncode != 0:
                self.skipTest("ss is not available")
            self.assertIn("127.0.0.1:%d" % server.port, out.stdout)
            self.assertNotIn("0.0.0.0:%d" % server.port, out.stdout)
        finally:
            server.stop()

    def test_listens_on_ipv6_loopback_with_host(self):
        try:
            probe = socket.socket(socket.AF_INET6)
            probe.bind(("::1", 0))
            probe.close()
        except OSError as e:
            self.skipTest("this machine has no IPv6 loopback (::1): %s" % e)
        server = FakeServer("--quiet", "--host", "::1")
        try:
            self.assertEqual(server.banner.strip(), "fake-hibp listening on http://[::1]:%d" % server.port)
            conn = http.client.HTTPConnection("::1", server.port, timeout=10)
            self.assertEqual(request(server.port, "/api/v3/dataclasses", {"User-Agent": UA}, connection=conn).status, 200)
            conn.close()
            # Control requests from ::1 count as loopback.
            conn = http.client.HTTPConnection("::1", server.port, timeout=10)
            self.assertEqual(request(server.port, "/__control/stats", connection=conn).status, 200)
            conn.close()
            with self.assertRaises(OSError):
                socket.create_connection(("127.0.0.1", server.port), timeout=5).close()
        finally:
            server.stop()

    def test_refuses_hosts_other_than_loopback(self):
        bad = subprocess.run([sys.executable, SERVER, "--host", "0.0.0.0"], capture_output=True, text=True)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("--host", bad.stderr)

    def test_rejects_bad_options_and_bad_fixtures(self):
        bad_key = subprocess.run([sys.executable, SERVER, "--key", "xyz"], capture_output=True, text=True)
        self.assertEqual(bad_key.returncode, 2)
        self.assertIn("32 hexadecimal", bad_key.stderr)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"accounts": {"a@example.com": {"breaches": ["NoSuchBreach"]}}}, f)
        try:
            bad = subprocess.run([sys.executable, SERVER, "--fixtures", f.name], capture_output=True, text=True)
            self.assertEqual(bad.returncode, 1)
            self.assertIn("NoSuchBreach", bad.stderr)
        finally:
            os.unlink(f.name)


class ClientCheckTests(ServerTestCase):
    def test_missing_user_agent_is_blocked_with_html_and_cf_ray(self):
        for path in ("/api/v3/breaches", "/api/v3/breachedaccount/pwned@example.com", "/range/ABCDE"):
            r = self.get(path, ua=None)
            self.assertEqual(r.status, 403, path)
            self.assertIn("text/html", r.headers["content-type"])
            self.assertIn(b"Request Blocked", r.body)
            self.assertRegex(r.headers.get("cf-ray", ""), r"^[0-9a-f]{16}-[A-Z]{3}$")
        self.assertEqual(self.get("/api/v3/breaches", ua="   ").status, 403)

    def test_key_endpoints_need_a_known_well_formed_key(self):
        for path in ("/api/v3/breachedaccount/pwned@example.com", "/api/v3/pasteaccount/pwned@example.com",
                     "/api/v3/subscription/status"):
            for key, why in ((None, "missing"), ("", "missing"), ("1234", "improperly formed"),
                             ("z" * 32, "improperly formed"), ("4" * 32, "invalid")):
                r = self.get(path, key=key)
                self.assertEqual(r.status, 401, (path, key))
                self.assertTrue(r.headers["content-type"].startswith("text/plain"))
                self.assertIn(why, r.body.decode())
        self.assertEqual(self.get("/api/v3/subscription/status", key=KEY.upper()).status, 200,
                         "keys are hexadecimal, compared without case")

    def test_blocked_key_gets_403_html_with_cf_ray(self):
        r = self.account("breachedaccount", "pwned@example.com", key=BLOCKED_KEY)
        self.assertEqual(r.status, 403)
        self.assertIn(b"Request Blocked", r.body)
        self.assertIn("cf-ray", r.headers)

    def test_revoked_keys_get_hibps_long_401_as_text_or_in_the_older_json_form(self):
        revoked, revoked_json = "ab" * 16, "cd" * 16
        self.configure(keys={revoked: "revoked", revoked_json: "revoked-json"})
        r = self.account("breachedaccount", "pwned@example.com", key=revoked)
        self.assertEqual(r.status, 401)
        self.assertTrue(r.headers["content-type"].startswith("text/plain"))
        self.assertGreater(len(r.body), 200, "long enough that cutting it at a fixed length breaks a sentence")
        r = self.get("/api/v3/subscription/status", key=revoked_json)
        self.assertEqual(r.status, 401)
        body = json.loads(r.body)
        self.assertEqual(body["statusCode"], 401)
        self.assertTrue(body["message"].startswith("Access denied due to revoked hibp-api-key."))

    def test_public_endpoints_need_no_key(self):
        for path in ("/api/v3/breaches", "/api/v3/breach/Adobe", "/api/v3/latestbreach", "/api/v3/dataclasses",
                     "/range/21BD1"):
            self.assertEqual(self.get(path, key=None).status, 200, path)

    def test_test_key_only_works_for_the_integration_test_domain(self):
        self.assertEqual(self.account("breachedaccount", "account-exists@" + TEST_DOMAIN, key=TEST_KEY).status, 200)
        self.assertEqual(self.account("pasteaccount", "account-exists@" + TEST_DOMAIN, key=TEST_KEY).status, 200)
        self.assertEqual(self.account("breachedaccount", "pwned@example.com", key=TEST_KEY).status, 401)
        self.assertEqual(self.get("/api/v3/subscription/status", key=TEST_KEY).status, 401)

    def test_other_methods_and_unknown_paths(self):
        r = self.get("/api/v3/breaches", method="POST", body=b"")
        self.assertEqual(r.status, 405)
        self.assertEqual(r.headers["allow"], "GET")
        for path in ("/api/v3/nosuchthing", "/api/v2/breaches", "/", "/api/v3/breachedaccount/a/b"):
            r = self.get(path)
            self.assertEqual((r.status, r.body), (404, b""), path)

    def test_oversized_request_body_is_refused(self):
        r = self.get("/api/v3/breaches", method="GET", body=b"x" * (fake_hibp.MAX_REQUEST_BODY + 1))
        self.assertEqual(r.status, 413)

    def test_connections_beyond_the_limit_get_503(self):
        idle = [socket.create_connection(("127.0.0.1", self.port)) for _ in range(fake_hibp.MAX_CONNECTIONS)]
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=10) as extra:
                self.assertTrue(extra.recv(100).startswith(b"HTTP/1.1 503 "))
        finally:
            for s in idle:
                s.close()
        for _ in range(100):  # the slots come back as the handler threads see the closed sockets
            try:
                if self.get("/api/v3/dataclasses").status == 200:
                    break
            except ConnectionError:
                pass
            threading.Event().wait(0.05)
        self.assertEqual(self.get("/api/v3/dataclasses").status, 200)

    def test_keep_alive_carries_many_requests_on_one_connection(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            statuses = []
            for path, key in (("/api/v3/breach/Adobe", None), ("/api/v3/breach/Nope", None),
                              ("/api/v3/breachedaccount/clean@example.com", KEY),
                              ("/api/v3/subscription/status", "4" * 32), ("/range/00000", None),
                              ("/api/v3/dataclasses", None)):
                headers = {"User-Agent": UA}
                if key:
                    headers["hibp-api-key"] = key
                statuses.append(request(self.port, path, headers, connection=conn).status)
            self.assertEqual(statuses, [200, 404, 404, 401, 200, 200])
            log = self.control("GET", "log").json()
            self.assertEqual(len({entry["monotonic"] for entry in log}), 6)
        finally:
            conn.close()


class AccountTests(ServerTestCase):
    def test_integration_test_accounts_behave_as_the_contract_says(self):
        def names(local):
            return self.breaches_of(local + "@" + TEST_DOMAIN, key=TEST_KEY)

        def pastes(local):
            r = self.account("pasteaccount", local + "@" + TEST_DOMAIN, key=TEST_KEY)
            return len(r.json()) if r.status == 200 else 0

        exists = names("account-exists")
        self.assertEqual([b["Name"] for b in exists], ["Adobe"])
        self.assertEqual(pastes("account-exists"), 1)
        self.assertEqual(len(names("multiple-breaches")), 3)
        self.assertEqual([b["Name"] for b in names("not-active-and-active-breach")], ["Adobe"])
        for local in ("not-active-breach", "opt-out", "opt-out-breach", "permanent-opt-out", "sensitive-breach"):
            self.assertEqual(names(local), 404, local)
        for local in ("opt-out", "opt-out-breach", "permanent-opt-out"):
            self.assertEqual(pastes(local), 0, local)
        self.assertEqual(names("paste-sensitive-breach"), 404)
        self.assertEqual(pastes("paste-sensitive-breach"), 1)
        others = names("sensitive-and-other-breaches")
        self.assertEqual(len(others), 2)
        self.assertFalse(any(b["IsSensitive"] for b in others))
        spam_only = names("spam-list-only")
        self.assertEqual(len(spam_only), 1)
        self.assertTrue(spam_only[0]["IsSpamList"])
        spam_mix = names("spam-list-and-others")
        self.assertGreater(len(spam_mix), 1)
        self.assertEqual(sum(b.get("IsSpamList", False) for b in spam_mix), 1)
        free = names("subscription-free-breach")
        self.assertEqual([b["IsSubscriptionFree"] for b in free], [True])
        free_mix = names("subscription-free-and-other-breaches")
        self.assertEqual(sorted(b.get("IsSubscriptionFree", False) for b in free_mix), [False, False, True])
        stealer = names("stealer-log")
        self.assertEqual([b["IsStealerLog"] for b in stealer], [True])
        unverified = names("unverified-breach")
        self.assertEqual([b["IsVerified"] for b in unverified], [False])
        self.assertEqual(self.account("breachedaccount", "unverified-breach@" + TEST_DOMAIN,
                                      "?IncludeUnverified=false", key=TEST_KEY).status, 404)

    def test_truncated_by_default_full_objects_on_request(self):
        short = self.account("breachedaccount", "multiple-breaches@" + TEST_DOMAIN, key=TEST_KEY).json()
        self.assertTrue(all(list(b) == ["Name"] for b in short))
        full = self.breaches_of("multiple-breaches@" + TEST_DOMAIN, key=TEST_KEY)
        self.assertEqual([b["Name"] for b in full], [b["Name"] for b in short])
        for breach in full:
            self.assertEqual(breach, self.get("/api/v3/breach/" + breach["Name"]).json())
        truncated_explicitly = self.account("breachedaccount", "multiple-breaches@" + TEST_DOMAIN,
                                            "?truncateResponse=true", key=TEST_KEY).json()
        self.assertEqual(truncated_explicitly, short)

    def test_domain_filter(self):
        account = "multiple-breaches@" + TEST_DOMAIN
        only = self.account("breachedaccount", account, "?domain=ADOBE.com", key=TEST_KEY).json()
        self.assertEqual(only, [{"Name": "Adobe"}])
        self.assertEqual(self.account("breachedaccount", account, "?domain=nowhere.example", key=TEST_KEY).status, 404)

    def test_accounts_are_decoded_trimmed_and_case_insensitive(self):
        plain = self.account("breachedaccount", "pwned-carol@example.com")
        self.assertEqual(plain.status, 200)
        for variant in ("  PWNED-Carol@Example.COM ", "pwned-carol%40example.com"):
            path = "/api/v3/breachedaccount/" + (quote(variant) if "%" not in variant else variant)
            self.assertEqual(self.get(path).json(), plain.json(), variant)
        plus = self.account("breachedaccount", "pwned+tag@example.com")
        encoded = self.get("/api/v3/breachedaccount/pwned%2Btag%40example.com")
        self.assertEqual(plus.json(), encoded.json())

    def test_deterministic_rule(self):
        self.assertEqual(self.breaches_of("clean-anything@example.com"), 404)
        self.assertEqual(self.account("pasteaccount", "clean-anything@example.com").status, 404)
        hidden = {b["Name"] for b in self.get("/api/v3/breaches").json()
                  if b["IsSensitive"] or b.get("IsRetired") or re.search("[\x00-\x1f\x7f-\x9f]", b["Title"] + b["Description"])}
        for i in range(15):
            account = "pwned.user%d@example.org" % i
            first = self.breaches_of(account)
            self.assertIsInstance(first, list, account)
            self.assertTrue(1 <= len(first) <= 6)
            self.assertFalse({b["Name"] for b in first} & hidden)
            self.assertEqual(self.breaches_of(account), first, "the same account must give the same answer")
        clean = sum(self.breaches_of("someone%d@example.net" % i, query="") == 404 for i in range(90))
        self.assertTrue(15 <= clean <= 45, "about one in three should be clean, got %d of 90" % clean)

    def test_usernames_and_phone_numbers_work_like_addresses(self):
        for account in ("+447700900123", "447700900456", "pwned_gamer", "clean_gamer", "Some.User"):
            first = self.account("breachedaccount", account)
            self.assertIn(first.status, (200, 404), account)
            again = self.account("breachedaccount", account.upper())
            self.assertEqual((again.status, again.body), (first.status, first.body))
        self.assertEqual(self.account("breachedaccount", "pwned_gamer").status, 200)
        self.assertEqual(self.account("breachedaccount", "clean_gamer").status, 404)

    def test_unacceptable_accounts_get_400(self):
        for raw in ("%20%20", "a%00b", "x" * 300):
            self.assertEqual(self.get("/api/v3/breachedaccount/" + raw).status, 400, raw)

    def test_paste_shape(self):
        pastes = None
        for i in range(40):
            r = self.account("pasteaccount", "pwned.paster%d@example.com" % i)
            if r.status == 200:
                pastes = r.json()
                break
        self.assertIsNotNone(pastes, "some pwned account should have pastes")
        sources = {"Pastebin", "Pastie", "Slexy", "Ghostbin", "QuickLeak", "JustPaste", "AdHocUrl",
                   "PermanentOptOut", "OptOut"}
        for paste in pastes:
            self.assertEqual(set(paste), {"Source", "Id", "Title", "Date", "EmailCount"})
            self.assertIn(paste["Source"], sources)
            self.assertIsInstance(paste["EmailCount"], int)
            self.assertTrue(paste["Date"] is None or re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", paste["Date"]))

    def test_fixtures_decide_listed_accounts(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"accounts": {" Alice@Example.com": {"breaches": ["adobe", "Brightmere", "VelvetRendezvous"],
                                                            "pastes": 2},
                                    "pwned-but-not@example.com": {"breaches": []},
                                    "owner@example.com": {"breaches": ["Adobe", "VelvetRendezvous", "OldHarbourForum"],
                                                          "ownerVerified": True}},
                       "passwords": {"fixture-password-42": 77}}, f)
        server = FakeServer("--quiet", "--rpm", "0", "--fixtures", f.name)
        try:
            headers = {"User-Agent": UA, "hibp-api-key": KEY}
            r = request(server.port, "/api/v3/breachedaccount/alice@example.com", headers)
            self.assertEqual(r.json(), [{"Name": "Adobe"}, {"Name": "Brightmere"}])
            self.assertEqual(len(request(server.port, "/api/v3/pasteaccount/ALICE@example.com", headers).json()), 2)
            self.assertEqual(request(server.port, "/api/v3/breachedaccount/pwned-but-not@example.com",
                                     headers).status, 404)
            # A verified owner sees the sensitive breach too, never the retired one.
            r = request(server.port, "/api/v3/breachedaccount/owner@example.com", headers)
            self.assertEqual(r.json(), [{"Name": "Adobe"}, {"Name": "VelvetRendezvous"}])
            digest = fake_hibp.sha1_hex("fixture-password-42")
            body = request(server.port, "/range/" + digest[:5], {"User-Agent": UA}).body.decode()
            self.assertIn(digest[5:] + ":77", body.split("\r\n"))
        finally:
            server.stop()
            os.unlink(f.name)


class FaultTests(ServerTestCase):
    def test_fault_accounts(self):
        r = self.account("breachedaccount", "fault-503@example.com")
        self.assertEqual(r.status, 503)
        self.assertIn("text/html", r.headers["content-type"])
        self.assertRaises(ValueError, r.json)
        self.assertEqual(self.account("pasteaccount", "fault-503@example.com").status, 503)
        self.assertEqual(self.account("breachedaccount", "fault-400@example.com").status, 400)
        malformed = self.account("breachedaccount", "fault-malformed@example.com")
        self.assertEqual(malformed.status, 200)
        self.assertRaises(ValueError, malformed.json)
        big = self.account("breachedaccount", "fault-oversized@example.com")
        self.assertEqual(big.status, 200)
        self.assertGreater(len(big.body), 11 * 1024 * 1024)
        self.assertEqual(int(big.headers["content-length"]), len(big.body))
        self.assertIn(self.account("breachedaccount", "fault-503x@example.com").status, (200, 404),
                      "faults belong to their exact account only")

    def test_fault_timeout_account_hangs_for_timeout_s(self):
        self.configure(timeout_s=0.6)
        with self.assertRaises((socket.timeout, TimeoutError)):
            self.account("breachedaccount", "fault-timeout@example.com", timeout=0.1)
        self.configure(timeout_s=0)
        self.assertIn(self.account("breachedaccount", "fault-timeout@example.com").status, (200, 404))

    def test_fault_escape_account_returns_the_escape_laden_entries(self):
        breaches = self.breaches_of("fault-escape@example.com")
        dirty = [b for b in breaches if re.search("[\x1b\x07\x9b\x9d]", b["Title"] + b["Description"])]
        self.assertGreaterEqual(len(dirty), 2)
        for paste in self.account("pasteaccount", "fault-escape@example.com").json():
            self.assertIn("\x1b", paste["Title"])

    def test_injected_faults_hit_the_next_requests_in_order(self):
        pending = self.control("POST", "faults", {"503": 2, "429": 1, "malformed": 1, "oversized": 1,
                                                  "400": 1}).json()["pending"]
        self.assertEqual(pending, ["503", "503", "429", "malformed", "oversized", "400"])
        self.assertEqual(self.get("/favicon.ico").status, 404, "paths outside the API do not take a fault")
        path = "/api/v3/breachedaccount/clean@example.com"
        first, second, limited, broken, big, bad = (self.get(path) for _ in range(6))
        self.assertEqual((first.status, second.status), (503, 503))
        self.assertEqual(limited.status, 429)
        self.assertEqual(limited.headers["retry-after"], "1")
        self.assertEqual(limited.json()["statusCode"], 429)
        self.assertEqual(broken.status, 200)
        self.assertRaises(ValueError, broken.json)
        self.assertGreater(len(big.body), 11 * 1024 * 1024)
        self.assertEqual(bad.status, 400)
        self.assertEqual(self.get(path).status, 404, "after the burst the account behaves normally again")
        self.assertEqual(self.control("GET", "stats").json()["injected_faults"], 6)

    def test_an_injected_429_can_ask_for_any_retry_after(self):
        self.control("POST", "faults", {"429:999999": 1, "429:10": 1})
        path = "/api/v3/breachedaccount/clean@example.com"
        long, short = self.get(path), self.get(path)
        self.control("POST", "faults", {"500": 1})
        self.assertEqual(self.get(path).status, 500)
        self.assertEqual((long.status, long.headers["retry-after"]), (429, "999999"))
        self.assertEqual(long.json(), {"statusCode": 429, "message": "Rate limit is exceeded. Try again in 999999 seconds."})
        self.assertEqual((short.status, short.headers["retry-after"]), (429, "10"))
        for bad in ("429:0", "429:x", "429:", "429:1000000000"):
            self.assertEqual(self.control("POST", "faults", {bad: 1}).status, 400, bad)

    def test_a_fault_can_be_kept_for_one_endpoint(self):
        # "breacheddomain=429:30": only the domain search takes it; every other request goes through.
        pending = self.control("POST", "faults", {"breacheddomain=429:30": 2, "range=503": 1}).json()
        self.assertEqual(pending, {"pending": [], "byEndpoint": {"breacheddomain": ["429:30", "429:30"], "range": ["503"]}})
        self.assertEqual(self.get("/api/v3/subscribeddomains").status, 200)
        self.assertEqual(self.get("/api/v3/breachedaccount/clean@example.com").status, 404)
        search = "/api/v3/breacheddomain/" + TEST_DOMAIN
        first, second, third = self.get(search), self.get(search), self.get(search)
        self.assertEqual((first.status, first.headers["retry-after"]), (429, "30"))
        self.assertEqual((second.status, second.headers["retry-after"]), (429, "30"))
        self.assertEqual(third.status, 200, "the queue of that endpoint is used up")
        self.assertEqual(self.get("/range/ABCDE").status, 503)
        self.assertEqual(self.control("GET", "faults").json(), {"pending": []})
        # A fault for everyone goes first; the endpoint's waits behind it.
        self.control("POST", "faults", {"breacheddomain=400": 1, "500": 1})
        self.assertEqual(self.get(search).status, 500)
        self.assertEqual(self.get(search).status, 400)
        for bad in ("breacheddomain=504", "=429", "Bad Endpoint=503", "breacheddomain=429:0"):
            self.assertEqual(self.control("POST", "faults", {bad: 1}).status, 400, bad)
        self.control("POST", "faults", {"range=503": 3})
        self.control("POST", "reset")
        self.assertEqual(self.control("GET", "faults").json(), {"pending": []}, "reset clears them too")

    def test_injected_timeout_and_drop(self):
        self.configure(timeout_s=0.6)
        self.control("POST", "faults", {"timeout": 1, "drop": 1})
        with self.assertRaises((socket.timeout, TimeoutError)):
            self.get("/api/v3/breaches", timeout=0.1)
        with self.assertRaises((http.client.RemoteDisconnected, ConnectionError)):
            self.get("/api/v3/breaches")
        self.assertEqual(self.get("/api/v3/breaches").status, 200)

    def test_bad_fault_requests_are_refused(self):
        self.assertEqual(self.control("POST", "faults", {"504": 1}).status, 400)
        self.assertEqual(self.control("POST", "faults", {"503": "three"}).status, 400)
        self.assertEqual(self.control("POST", "faults", [1]).status, 400)
        self.assertEqual(self.control("GET", "faults").json(), {"pending": []})


class RateLimitTests(ServerTestCase):
    def test_token_bucket_burst_then_429_with_retry_after(self):
        path = "/api/v3/breachedaccount/clean@example.com"
        statuses = [self.get(path, key=SLOW_KEY).status for _ in range(2)]
        self.assertEqual(statuses, [404, 404], "the burst of 2 passes")
        limited = self.get(path, key=SLOW_KEY)
        self.assertEqual(limited.status, 429)
        seconds = int(limited.headers["retry-after"])
        self.assertIn(seconds, (9, 10), "6 rpm refills one token in 10 s")
        self.assertEqual(limited.json(), {"statusCode": 429,
                                          "message": "Rate limit is exceeded. Try again in %d seconds." % seconds})
        self.assertEqual(self.get(path, key=KEY).status, 404, "each key has its own bucket")
        stats = self.control("GET", "stats").json()
        self.assertEqual(stats["too_many_requests"], 1)
        self.assertEqual(stats["rate_limited"], 1)

    def test_token_bucket_arithmetic(self):
        bucket = fake_hibp.TokenBucket(rpm=6, burst=2, now=100.0)
        self.assertEqual([bucket.take(100.0), bucket.take(100.0)], [0, 0])
        self.assertEqual(bucket.take(100.5), 10, "0.95 of a token missing at 0.1/s: 9.5 s, rounded up")
        self.assertEqual(bucket.take(109.0), 1, "0.9 s short still says 1")
        self.assertEqual(bucket.take(110.0), 0)
        self.assertEqual(bucket.take(200.0), 0)
        self.assertEqual(bucket.take(200.0), 0, "refill stops at the capacity of 2")
        self.assertEqual(bucket.take(200.0), 10)
        fast = fake_hibp.TokenBucket(rpm=600, burst=1, now=0.0)
        self.assertEqual((fast.take(0.0), fast.take(0.0)), (0, 1), "never less than 1 second")

    def test_reset_refills_the_buckets(self):
        path = "/api/v3/breachedaccount/clean@example.com"
        for _ in range(2):
            self.get(path, key=SLOW_KEY)
        self.assertEqual(self.get(path, key=SLOW_KEY).status, 429)
        self.control("POST", "reset")
        self.assertEqual(self.get(path, key=SLOW_KEY).status, 404)

    def test_public_endpoints_and_passwords_are_not_rate_limited(self):
        self.configure(rpm=1, burst=1)
        for _ in range(4):
            self.assertEqual(self.get("/api/v3/breaches", key=None).status, 200)
            self.assertEqual(self.get("/range/ABCDE", key=None).status, 200)

    def test_refill_and_config_at_run_time(self):
        config = self.configure(rpm=600, burst=1)
        self.assertEqual((config["rpm"], config["burst"]), (600, 1))
        self.assertEqual(config["keys"][KEY], 600)
        path = "/api/v3/breachedaccount/clean@example.com"
        self.assertEqual(self.get(path).status, 404)
        limited = self.get(path)
        self.assertEqual(limited.status, 429)
        self.assertEqual(limited.headers["retry-after"], "1", "rounded up, at least 1")
        status = self.get("/api/v3/subscription/status")
        self.assertIn(status.status, (200, 429))
        threading.Event().wait(0.25)  # 600 rpm refills a token every 0.1 s
        self.assertEqual(self.get("/api/v3/subscription/status").json()["Rpm"], 600)
        self.assertEqual(self.control("POST", "config", {"rpm": -1}).status, 400)
        self.assertEqual(self.control("POST", "config", {"speed": 1}).status, 400)
        self.assertEqual(self.control("POST", "config", {"keys": {"xyz": 5}}).status, 400)

    def test_rate_is_decided_on_arrival_before_latency(self):
        self.configure(rpm=1, burst=1, latency_ms=400)
        path = "/api/v3/breachedaccount/clean@example.com"
        results = []
        threads = [threading.Thread(target=lambda: results.append(self.get(path).status)) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(sorted(results), [404, 429], "the second request is refused although the first is still waiting")
        with self.assertRaises((socket.timeout, TimeoutError)):
            self.get("/api/v3/breaches", timeout=0.1)

    def test_a_request_is_stamped_when_its_first_bytes_arrive_not_when_it_is_parsed(self):
        # HIBP counts a request when it reaches its edge. A request whose headers trickle in must be
        # stamped at its first bytes: a stamp taken after parsing moves with the server's own delays.
        with socket.create_connection(("127.0.0.1", self.server.port)) as s:
            s.sendall(b"GET /api/v3/breaches HTTP/1.1\r\nHost: x\r\n")
            started = time.monotonic()
            threading.Event().wait(0.3)
            s.sendall(("User-Agent: %s\r\n\r\n" % UA).encode())
            s.settimeout(10)
            self.assertTrue(s.recv(100).startswith(b"HTTP/1.1 200"))
        entry = [e for e in self.control("GET", "log").json() if e["path"] == "/api/v3/breaches"][-1]
        self.assertLess(entry["monotonic"] - started, 0.15, "stamped at arrival, not 0.3 s later when complete")

    def test_keys_can_be_added_or_blocked_at_run_time(self):
        new_key = "5" * 32
        self.assertEqual(self.account("breachedaccount", "clean@example.com", key=new_key).status, 401)
        self.configure(keys={new_key: 60, KEY: "blocked"})
        self.assertEqual(self.account("breachedaccount", "clean@example.com", key=new_key).status, 404)
        self.assertEqual(self.account("breachedaccount", "clean@example.com", key=KEY).status, 403)
        self.assertEqual(self.get("/api/v3/subscription/status", key=new_key).json()["Rpm"], 60)


class EndpointTests(ServerTestCase):
    def test_breaches_list_and_filters(self):
        r = self.get("/api/v3/breaches", key=None)
        self.assertEqual(r.headers["content-type"], "application/json; charset=utf-8")
        everything = r.json()
        self.assertGreaterEqual(len(everything), 40)
        adobe = self.get("/api/v3/breaches?Domain=adobe.com").json()
        self.assertEqual([b["Name"] for b in adobe], ["Adobe"])
        spam = self.get("/api/v3/breaches?IsSpamList=true").json()
        self.assertTrue(spam)
        self.assertTrue(all(b["IsSpamList"] for b in spam))
        self.assertEqual(len(spam), sum(b.get("IsSpamList", False) for b in everything))

    def test_single_breach_latest_and_dataclasses(self):
        self.assertEqual(self.get("/api/v3/breach/adobe").json()["Name"], "Adobe")
        missing = self.get("/api/v3/breach/NoSuchBreach")
        self.assertEqual((missing.status, missing.body), (404, b""))
        everything = self.get("/api/v3/breaches").json()
        latest = self.get("/api/v3/latestbreach").json()
        self.assertEqual(latest["AddedDate"], max(b["AddedDate"] for b in everything))
        classes = self.get("/api/v3/dataclasses").json()
        self.assertTrue(all(isinstance(c, str) for c in classes))
        self.assertEqual(classes, sorted(classes, key=str.casefold))
        self.assertTrue({c for b in everything for c in b["DataClasses"]} <= set(classes))

    def test_subscription_status_shape(self):
        status = self.get("/api/v3/subscription/status").json()
        for field, kind in (("SubscriptionName", str), ("Description", str), ("SubscribedUntil", str),
                            ("Rpm", int), ("DomainSearchMaxBreachedAccounts", int), ("IncludesStealerLogs", bool)):
            self.assertIsInstance(status[field], kind, field)
        self.assertRegex(status["SubscribedUntil"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        self.assertEqual(status["Rpm"], 0)
        self.assertEqual(self.get("/api/v3/subscription/status", key=SLOW_KEY).json()["Rpm"], 6)

    def test_wire_json_escapes_html_and_controls_like_the_real_api(self):
        raw = self.get("/api/v3/breaches").body
        raw.decode("ascii")  # non-ASCII is escaped
        self.assertIn(b"\\u003Ca href=", raw)
        self.assertIn(b"\\u0026", raw)
        self.assertIn(b"\\u001B[", raw)
        self.assertIn(b"\\u00E9", raw)
        self.assertNotIn(b"<", raw)
        self.assertNotIn(b"\x1b", raw)


class PasswordRangeTests(ServerTestCase):
    def lines(self, prefix, padded=False, mode=""):
        r = self.get("/range/" + prefix + mode, key=None, extra={"Add-Padding": "true"} if padded else None)
        self.assertEqual(r.status, 200)
        self.assertTrue(r.headers["content-type"].startswith("text/plain"))
        text = r.body.decode("ascii")
        self.assertNotIn("\n", text.replace("\r\n", ""), "lines end in CRLF")
        return [line.split(":") for line in text.split("\r\n")]

    def test_known_passwords_are_found(self):
        for password in ("password", "123456", "P@ssw0rd"):
            digest = fake_hibp.sha1_hex(password)
            found = dict(self.lines(digest[:5]))
            self.assertGreater(int(found[digest[5:]]), 0, password)
        self.assertEqual(fake_hibp.sha1_hex("password"), "5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8")

    def test_every_prefix_answers_with_well_formed_lines(self):
        for prefix in ("00000", "fffff", "A1b2C"):
            lines = self.lines(prefix)
            self.assertGreater(len(lines), 0)
            for suffix, count in lines:
                self.assertRegex(suffix, r"^[0-9A-F]{35}$")
                self.assertGreater(int(count), 0)
            self.assertEqual([s for s, _ in lines], sorted(s for s, _ in lines))
        for bad in ("ABCD", "ABCDEF", "GHIJK"):
            self.assertEqual(self.get("/range/" + bad, key=None).status, 400, bad)

    def test_padding(self):
        digest = fake_hibp.sha1_hex("123456")
        plain = dict(self.lines(digest[:5]))
        for _ in range(3):
            padded = self.lines(digest[:5], padded=True)
            self.assertTrue(800 <= len(padded) <= 1000, len(padded))
            counts = dict(padded)
            self.assertTrue(any(c == "0" for c in counts.values()))
            self.assertEqual({s: c for s, c in counts.items() if c != "0"}, plain)

    def test_ntlm_mode(self):
        self.assertEqual(fake_hibp.ntlm_hex("password"), "8846F7EAEE8FB117AD06BDD830B7586C")
        lines = self.lines("8846F", mode="?mode=ntlm")
        self.assertTrue(all(re.fullmatch(r"[0-9A-F]{27}", s) for s, _ in lines))
        self.assertGreater(int(dict(lines)["7EAEE8FB117AD06BDD830B7586C"]), 0)

    def test_md4_matches_rfc_1320(self):
        for text, digest in ((b"", "31d6cfe0d16ae931b73c59d7e0c089c0"), (b"abc", "a448017aaf21d8525fc10ae87aa6729d"),
                             (b"message digest", "d9130a8164549fe818874806e1c7014b"),
                             (b"1234567890" * 8, "e33b4ddc9c38f2199c3e7b164fcc0536")):
            self.assertEqual(fake_hibp.md4(text).hex(), digest)


class ControlTests(ServerTestCase):
    def test_log_records_api_requests_but_not_control_ones(self):
        self.get("/api/v3/breachedaccount/pwned%2Bx%40example.com?truncateResponse=false", extra={"X-Probe": "1"})
        self.get("/range/ABCDE", key=None)
        self.control("GET", "stats")
        log = self.control("GET", "log").json()
        self.assertEqual([e["path"] for e in log], ["/api/v3/breachedaccount/pwned%2Bx%40example.com", "/range/ABCDE"])
        first = log[0]
        self.assertEqual(first["method"], "GET")
        self.assertEqual(first["query"], "truncateResponse=false")
        self.assertEqual(first["headers"]["x-probe"], "1")
        self.assertEqual(first["headers"]["hibp-api-key"], KEY)
        self.assertEqual(first["headers"]["user-agent"], UA)
        self.assertEqual(first["status"], 200)
        self.assertLessEqual(first["monotonic"], log[1]["monotonic"])

    def test_stats_count_per_status(self):
        self.get("/api/v3/breach/Adobe")
        self.get("/api/v3/breach/Nope")
        self.get("/api/v3/breach/Nope")
        self.get("/api/v3/breaches", ua=None)
        stats = self.control("GET", "stats").json()
        self.assertEqual(stats["by_status"], {"200": 1, "403": 1, "404": 2})
        self.assertEqual(stats["total"], 4)
        self.assertEqual(stats["too_many_requests"], 0)

    def test_reset_clears_log_stats_and_faults(self):
        self.get("/api/v3/breach/Adobe")
        self.control("POST", "faults", {"503": 5})
        self.configure(latency_ms=5)
        self.assertEqual(self.control("POST", "reset").status, 200)
        self.assertEqual(self.control("GET", "log").json(), [])
        self.assertEqual(self.control("GET", "stats").json()["total"], 0)
        self.assertEqual(self.control("GET", "faults").json(), {"pending": []})
        self.assertEqual(self.control("GET", "config").json()["latency_ms"], 5, "a plain reset keeps the config")
        self.assertEqual(self.control("POST", "reset", {"config": True}).status, 200)
        self.assertEqual(self.control("GET", "config").json()["latency_ms"], 0)

    def test_control_rejects_wrong_methods_and_bodies(self):
        self.assertEqual(self.control("POST", "log", {}).status, 405)
        self.assertEqual(self.control("GET", "reset").status, 405)
        self.assertEqual(request(self.port, "/__control/config", {}, "POST", b"{not json").status, 400)
        self.assertEqual(self.control("GET", "nothing").status, 404)


class UnlistTests(ServerTestCase):
    """/__control/unlist: HIBP stops listing an account in some breaches, or in all, between requests."""

    ACCOUNT = "multiple-breaches@" + TEST_DOMAIN

    def names(self, account=None):
        r = self.account("breachedaccount", account or self.ACCOUNT, key=TEST_KEY)
        return [b["Name"] for b in r.json()] if r.status == 200 else r.status

    def test_some_breaches_then_all_then_listed_again(self):
        self.assertEqual(self.names(), ["Adobe", "Brightmere", "Lanternfish"])
        r = self.control("POST", "unlist", {"account": self.ACCOUNT.upper(), "breaches": ["adobe"]})
        self.assertEqual(r.status, 200, r.body)
        self.assertEqual(r.json(), {"account": self.ACCOUNT, "unlisted": ["Adobe"]})
        self.assertEqual(self.names(), ["Brightmere", "Lanternfish"])
        self.assertEqual(self.control("POST", "unlist", {"account": self.ACCOUNT}).json()["unlisted"], ["*", "Adobe"])
        self.assertEqual(self.names(), 404, "listed in no breach: the documented 404")
        self.assertEqual(self.control("POST", "unlist", {"account": self.ACCOUNT, "relist": True}).status, 200)
        self.assertEqual(self.names(), ["Adobe", "Brightmere", "Lanternfish"])

    def test_hides_breaches_control_accounts_added_and_the_range_and_domain_searches_too(self):
        account = "ann@" + TEST_DOMAIN
        self.control("POST", "accounts", {"account": account, "breaches": ["Adobe", "Brightmere"]})
        self.control("POST", "unlist", {"account": account, "breaches": ["Brightmere"]})
        self.assertEqual(self.names(account), ["Adobe"])
        self.configure(k_anonymity=True)
        digest = hashlib.sha1(account.encode()).hexdigest().upper()
        ranged = self.get("/api/v3/breachedaccount/range/" + digest[:6]).json()
        self.assertEqual([e["websites"] for e in ranged if e["hashSuffix"] == digest[6:]], [["Adobe"]])
        domain = self.get("/api/v3/breacheddomain/" + TEST_DOMAIN).json()
        self.assertEqual(domain.get("ann"), ["Adobe"])

    def test_reset_with_data_forgets_it_and_bad_bodies_are_refused(self):
        self.control("POST", "unlist", {"account": self.ACCOUNT})
        self.assertEqual(self.control("POST", "reset", {"data": True}).status, 200)
        self.assertEqual(len(self.names()), 3)
        for body in ({}, {"account": 3}, {"account": self.ACCOUNT, "breaches": "Adobe"},
                     {"account": self.ACCOUNT, "relist": "yes"}, {"account": self.ACCOUNT, "relist": True, "breaches": []},
                     {"account": self.ACCOUNT, "other": 1}, [self.ACCOUNT]):
            self.assertEqual(self.control("POST", "unlist", body).status, 400, body)
        self.assertEqual(self.control("GET", "unlist").status, 405)


class StealerLogTests(ServerTestCase):
    def stealer(self, account, **kwargs):
        return self.account("stealerlogsbyemail", account, **kwargs)

    def test_stealer_log_account_has_website_domains(self):
        for key in (KEY, TEST_KEY):
            r = self.stealer("stealer-log@" + TEST_DOMAIN, key=key)
            self.assertEqual(r.status, 200)
            self.assertEqual(r.headers["content-type"], "application/json; charset=utf-8")
            self.assertEqual(r.json(), ["brightmere.io", "login.dunerunner.app", "mail.orchardmail.net"])
        self.assertEqual(self.stealer("  Stealer-Log@HIBP-Integration-Tests.com ").status, 200)
        for local in ("account-exists", "multiple-breaches", "opt-out", "nobody-known"):
            r = self.stealer(local + "@" + TEST_DOMAIN)
            self.assertEqual((r.status, r.body), (404, b""), local)

    def test_address_must_be_on_a_verified_domain(self):
        r = self.stealer("pwned@example.com")
        self.assertEqual(r.status, 403)
        self.assertTrue(r.headers["content-type"].startswith("text/plain"))
        self.assertNotIn("cf-ray", r.headers, "not Cloudflare's block: the client can tell them apart")
        self.assertIn("not a verified domain", r.body.decode())
        self.configure(domains=["Example.com"])
        self.assertIn(self.stealer("pwned@example.com").status, (200, 404))
        self.assertEqual(self.stealer("stealer-log@" + TEST_DOMAIN).status, 403,
                         "domains replaces the list, the test domain included")
        self.assertEqual(self.stealer("stealer-log@" + TEST_DOMAIN, key=TEST_KEY).status, 200,
                         "the test key's domain is the test domain")
        self.assertEqual(self.stealer("pwned@example.com", key=TEST_KEY).status, 401)

    def test_key_without_stealer_logs_gets_403(self):
        self.configure(stealer_logs=False)
        r = self.stealer("stealer-log@" + TEST_DOMAIN)
        self.assertEqual(r.status, 403)
        self.assertTrue(r.headers["content-type"].startswith("text/plain"))
        self.assertIn("does not include stealer logs", r.body.decode())
        self.assertNotIn("cf-ray", r.headers)
        self.assertIs(self.get("/api/v3/subscription/status").json()["IncludesStealerLogs"], False)
        config = self.configure(entitlements={KEY: {"stealer_logs": True}})
        self.assertEqual(config["entitlements"], {KEY: {"stealer_logs": True}})
        self.assertEqual(self.stealer("stealer-log@" + TEST_DOMAIN).status, 200)
        self.assertIs(self.get("/api/v3/subscription/status").json()["IncludesStealerLogs"], True)
        self.assertEqual(self.stealer("stealer-log@" + TEST_DOMAIN, key=SLOW_KEY).status, 403)
        self.configure(stealer_logs=True, entitlements={SLOW_KEY: {"stealer_logs": False}, KEY: None})
        self.assertEqual(self.stealer("stealer-log@" + TEST_DOMAIN, key=SLOW_KEY).status, 403)
        self.assertEqual(self.stealer("stealer-log@" + TEST_DOMAIN).status, 200)
        self.assertEqual(self.control("GET", "config").json()["entitlements"], {SLOW_KEY: {"stealer_logs": False}})

    def test_keyed_endpoint_checks_apply(self):
        path = "/api/v3/stealerlogsbyemail/stealer-log%40" + TEST_DOMAIN
        self.assertEqual(self.get(path, key=None).status, 401)
        self.assertEqual(self.get(path, key="4" * 32).status, 401)
        self.assertEqual(self.get(path, ua=None).status, 403)
        blocked = self.get(path, key=BLOCKED_KEY)
        self.assertEqual(blocked.status, 403)
        self.assertIn("cf-ray", blocked.headers)
        self.assertEqual(self.get(path, method="POST", body=b"").status, 405)
        self.assertEqual([self.get(path, key=SLOW_KEY).status for _ in range(3)], [200, 200, 429])
        self.configure(domains=["example.com", TEST_DOMAIN])
        for bad in ("just-a-username", "nobody@", "@" + TEST_DOMAIN, "a@not_a_domain"):
            self.assertEqual(self.stealer(bad).status, 400, bad)
        self.assertEqual(self.stealer("fault-503@" + TEST_DOMAIN).status, 503)
        self.assertRaises(ValueError, self.stealer("fault-malformed@" + TEST_DOMAIN).json)
        self.control("POST", "faults", {"500": 1})
        self.assertEqual(self.get(path).status, 500)

    def test_deterministic_accounts_in_a_stealer_log_breach_have_domains(self):
        self.configure(domains=["example.org"])
        seen = {"with": 0, "without": 0}
        for i in range(40):
            account = "pwned.thief%d@example.org" % i
            names = [b["Name"] for b in self.breaches_of(account)]
            r = self.stealer(account)
            if "StealerHarvest2024" in names:
                seen["with"] += 1
                self.assertEqual(r.status, 200, account)
                domains = r.json()
                self.assertTrue(1 <= len(domains) <= 4)
                self.assertEqual(domains, sorted(domains))
                self.assertEqual(self.stealer(account).json(), domains, "deterministic")
            else:
                seen["without"] += 1
                self.assertEqual(r.status, 404, account)
        self.assertTrue(seen["with"] and seen["without"], seen)

    def test_fixtures_carry_stealer_logs(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"accounts": {"Thief@Example.com": {"breaches": ["StealerHarvest2024"],
                                                          "stealerLogs": ["Shop.Example", "mail.example.net"]},
                                    "quiet@example.com": {"breaches": ["Adobe"]}}}, f)
        server = FakeServer("--quiet", "--rpm", "0", "--fixtures", f.name)
        try:
            request(server.port, "/__control/config", {}, "POST", b'{"domains": ["example.com"]}')
            headers = {"User-Agent": UA, "hibp-api-key": KEY}
            r = request(server.port, "/api/v3/stealerlogsbyemail/thief%40example.com", headers)
            self.assertEqual(r.json(), ["mail.example.net", "shop.example"])
            self.assertEqual(request(server.port, "/api/v3/stealerlogsbyemail/quiet@example.com", headers).status, 404)
            r = request(server.port, "/api/v3/breacheddomain/example.com", headers)
            self.assertEqual(r.json(), {"quiet": ["Adobe"], "thief": ["StealerHarvest2024"]})
        finally:
            server.stop()
            os.unlink(f.name)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"accounts": {"a@example.com": {"stealerLogs": ["not a domain"]}}}, f)
        try:
            bad = subprocess.run([sys.executable, SERVER, "--fixtures", f.name], capture_output=True, text=True)
            self.assertEqual(bad.returncode, 1)
            self.assertIn("stealerLogs", bad.stderr)
        finally:
            os.unlink(f.name)


class KAnonymityTests(ServerTestCase):
    """breachedaccount/range/{6 hex}: the same records as breachedaccount, by hash prefix."""

    @staticmethod
    def sha1(account):
        return hashlib.sha1(account.strip().lower().encode("utf-8")).hexdigest().upper()

    def range_of(self, account, key=KEY, prefix=None):
        digest = self.sha1(account)
        return self.get("/api/v3/breachedaccount/range/" + (prefix or digest[:6]), key=key), digest[6:]

    def websites(self, account, **kwargs):
        r, suffix = self.range_of(account, **kwargs)
        self.assertEqual(r.status, 200, r.body)
        self.assertEqual(r.headers["content-type"], "application/json; charset=utf-8")
        found = [e["websites"] for e in r.json() if e["hashSuffix"] == suffix]
        self.assertLessEqual(len(found), 1)
        return found[0] if found else []

    def test_key_without_it_gets_403_and_the_request_is_logged_and_counted(self):
        r, _ = self.range_of("account-exists@" + TEST_DOMAIN)
        self.assertEqual(r.status, 403)
        self.assertTrue(r.headers["content-type"].startswith("text/plain"))
        self.assertNotIn("cf-ray", r.headers, "HIBP's own refusal, not Cloudflare's")
        self.assertIn("does not include k-anonymity", r.body.decode())
        log = self.control("GET", "log").json()
        self.assertEqual([(e["path"], e["status"]) for e in log],
                         [("/api/v3/breachedaccount/range/" + self.sha1("account-exists@" + TEST_DOMAIN)[:6], 403)])
        self.assertEqual(self.range_of("x@example.com", key="0" * 31 + "9")[0].status, 401)
        self.assertEqual(self.get("/api/v3/breachedaccount/range/ABCDEF", ua=None).status, 403)

    def test_answers_equal_breachedaccount_for_every_known_account(self):
        self.configure(k_anonymity=True)
        self.control("POST", "accounts", {"account": "Pwned-Alice@Example.com", "breaches": ["Adobe"]})
        self.control("POST", "accounts", {"account": "clean-bob@example.com"})
        accounts = ["%s@%s" % (local, TEST_DOMAIN) for local in fake_hibp.TEST_ACCOUNTS]
        accounts += ["pwned-alice@example.com", "clean-bob@example.com"]
        for account in accounts:
            direct = self.breaches_of(account, query="")
            expected = [] if direct == 404 else [b["Name"] for b in direct]
            self.assertEqual(self.websites(account), expected, account)
        self.assertTrue(self.websites("pwned-alice@example.com"), "the deterministic rule's own breaches too")
        self.assertEqual(self.websites("  PWNED-alice@EXAMPLE.com "), self.websites("pwned-alice@example.com"))

    def test_prefix_case_format_decoys_and_rate_limit(self):
        self.configure(k_anonymity=True)
        digest = self.sha1("multiple-breaches@" + TEST_DOMAIN)
        upper = self.get("/api/v3/breachedaccount/range/" + digest[:6]).json()
        lower = self.get("/api/v3/breachedaccount/range/" + digest[:6].lower()).json()
        self.assertEqual(upper, lower)
        self.assertGreaterEqual(len(upper), 1 + fake_hibp.K_ANONYMITY_DECOYS, "decoys share the prefix")
        for entry in upper:
            self.assertEqual(set(entry), {"hashSuffix", "websites"})
            self.assertRegex(entry["hashSuffix"], r"^[0-9A-F]{34}$")
        for bad in ("ABCDE", "ABCDEFA", "GGGGGG", "a%40b.c"):
            self.assertEqual(self.get("/api/v3/breachedaccount/range/" + bad).status, 400, bad)
        self.assertEqual(self.get("/api/v3/breachedaccount/range/ABCDEF", method="POST").status, 405)
        self.configure(rpm=1, burst=1)
        self.assertEqual(self.get("/api/v3/breachedaccount/range/ABCDEF").status, 200)
        r = self.get("/api/v3/breachedaccount/range/ABCDEF")
        self.assertEqual(r.status, 429, "paced like every keyed request")
        self.assertIn("retry-after", r.headers)

    def test_per_key_entitlement(self):
        config = self.configure(entitlements={KEY: {"k_anonymity": True}})
        self.assertEqual(config["entitlements"], {KEY: {"k_anonymity": True}})
        self.assertIs(config["k_anonymity"], False)
        self.assertEqual(self.range_of("a@example.com")[0].status, 200)
        self.assertEqual(self.range_of("a@example.com", key=SLOW_KEY)[0].status, 403)
        self.configure(k_anonymity=True, entitlements={KEY: {"k_anonymity": False}})
        self.assertEqual(self.range_of("a@example.com")[0].status, 403)
        self.assertEqual(self.range_of("a@example.com", key=SLOW_KEY)[0].status, 200)
        for bad in ({"k_anonymity": "yes"}, {"entitlements": {KEY: {"k_anonymity": 1}}}):
            self.assertEqual(self.control("POST", "config", bad).status, 400, bad)


class RangeEndpointAndPlanTests(ServerTestCase):
    """A server without breachedaccount/range, and subscription/status's IncludesKAnon: true, false or absent."""

    def status(self, key=KEY):
        r = self.get("/api/v3/subscription/status", key=key)
        self.assertEqual(r.status, 200, r.body)
        return r.json()

    def test_without_the_range_endpoint_it_answers_as_for_an_unknown_path(self):
        self.configure(k_anonymity=True, range_endpoint=False)
        r = self.get("/api/v3/breachedaccount/range/ABCDEF")
        unknown = self.get("/api/v3/nosuchendpoint/ABCDEF")
        self.assertEqual((r.status, r.body), (404, b""))
        self.assertEqual((r.status, r.body, r.headers.get("content-type")),
                         (unknown.status, unknown.body, unknown.headers.get("content-type")))
        self.assertEqual(self.get("/api/v3/breachedaccount/range/ABCDEF", key=None).status, 404,
                         "no key asked for: the path is unknown")
        self.assertIs(self.status()["IncludesKAnon"], False, "no range search to include")
        self.assertEqual(self.account("breachedaccount", "multiple-breaches@" + TEST_DOMAIN).status, 200)
        self.configure(range_endpoint=True)
        self.assertEqual(self.get("/api/v3/breachedaccount/range/ABCDEF").status, 200)

    def test_status_names_includes_k_anon_true_false_or_leaves_it_out(self):
        self.assertIs(self.status()["IncludesKAnon"], False, "present and false by default")
        self.configure(k_anonymity=True)
        self.assertIs(self.status()["IncludesKAnon"], True)
        self.configure(k_anonymity_field=False)
        self.assertNotIn("IncludesKAnon", self.status())
        self.assertEqual(self.get("/api/v3/breachedaccount/range/ABCDEF").status, 200, "the search itself unchanged")
        config = self.configure(k_anonymity_field=True, entitlements={SLOW_KEY: {"k_anonymity_field": False}})
        self.assertIs(config["k_anonymity_field"], True)
        self.assertIn("IncludesKAnon", self.status())
        self.assertNotIn("IncludesKAnon", self.status(key=SLOW_KEY))
        for bad in ({"range_endpoint": "no"}, {"k_anonymity_field": 0},
                    {"entitlements": {KEY: {"k_anonymity_field": "yes"}}}):
            self.assertEqual(self.control("POST", "config", bad).status, 400, bad)


class RangeCommandLineTests(unittest.TestCase):
    def test_options_set_the_starting_config(self):
        server = FakeServer("--quiet", "--rpm", "0", "--key", KEY, "--no-range-endpoint", "--no-k-anonymity-field",
                            "--k-anonymity")
        try:
            config = json.loads(request(server.port, "/__control/config").body)
            self.assertEqual((config["range_endpoint"], config["k_anonymity_field"], config["k_anonymity"]),
                             (False, False, True))
            r = request(server.port, "/api/v3/breachedaccount/range/ABCDEF", {"User-Agent": UA, "hibp-api-key": KEY})
            self.assertEqual(r.status, 404)
        finally:
            server.stop()


class DomainTests(ServerTestCase):
    EXPECTED_TEST_DOMAIN = {
        "account-exists": ["Adobe"],
        "multiple-breaches": ["Adobe", "Brightmere", "Lanternfish"],
        "not-active-and-active-breach": ["Adobe"],
        "paste-sensitive-breach": ["VelvetRendezvous"],
        "sensitive-and-other-breaches": ["Adobe", "Brightmere", "VelvetRendezvous"],
        "sensitive-breach": ["VelvetRendezvous"],
        "spam-list-and-others": ["Adobe", "Lanternfish", "MailSpindle"],
        "spam-list-only": ["MailSpindle"],
        "stealer-log": ["StealerHarvest2024"],
        "subscription-free-and-other-breaches": ["Adobe", "Brightmere", "TrailmarkOutdoors"],
        "subscription-free-breach": ["TrailmarkOutdoors"],
        "unverified-breach": ["CopperKettle"],
    }

    def test_domain_search_shows_the_owner_sensitive_breaches_but_not_retired_ones(self):
        for key in (KEY, TEST_KEY):
            r = self.get("/api/v3/breacheddomain/" + TEST_DOMAIN, key=key)
            self.assertEqual(r.status, 200)
            self.assertEqual(r.headers["content-type"], "application/json; charset=utf-8")
            self.assertEqual(r.json(), self.EXPECTED_TEST_DOMAIN)
            self.assertEqual(list(r.json()), sorted(r.json()))
        self.assertEqual(self.get("/api/v3/breacheddomain/%20HIBP-Integration-Tests.COM").json(),
                         self.EXPECTED_TEST_DOMAIN)

    def test_domain_must_be_verified_for_the_key(self):
        r = self.get("/api/v3/breacheddomain/example.com")
        self.assertEqual(r.status, 403)
        self.assertTrue(r.headers["content-type"].startswith("text/plain"))
        self.assertNotIn("cf-ray", r.headers)
        self.assertEqual(self.get("/api/v3/breacheddomain/example.com", key=TEST_KEY).status, 401)
        self.configure(entitlements={KEY: {"domains": ["example.com"]}})
        self.assertEqual(self.get("/api/v3/breacheddomain/example.com").status, 404, "verified, nothing known")
        self.assertEqual(self.get("/api/v3/breacheddomain/" + TEST_DOMAIN).status, 403)
        self.assertEqual(self.get("/api/v3/breacheddomain/" + TEST_DOMAIN, key=SLOW_KEY).status, 200)
        for bad in ("not%20a%20domain", "a@b.com", "localhost", "%00x.com"):
            self.assertEqual(self.get("/api/v3/breacheddomain/" + bad).status, 400, bad)
        self.assertEqual(self.get("/api/v3/breacheddomain/" + TEST_DOMAIN, key=None).status, 401)
        self.assertEqual([self.get("/api/v3/breacheddomain/" + TEST_DOMAIN, key=SLOW_KEY).status
                          for _ in range(2)], [200, 429], "the burst of 2 is used up")
        self.assertEqual(self.get("/api/v3/breacheddomain/" + TEST_DOMAIN, method="DELETE").status, 405)

    def test_subscribed_domains(self):
        r = self.get("/api/v3/subscribeddomains")
        self.assertEqual(r.status, 200)
        [entry] = r.json()
        self.assertEqual(list(entry), ["DomainName", "PwnCount", "PwnCountExcludingSpamLists",
                                       "PwnCountExcludingSpamListsAtLastSubscriptionRenewal",
                                       "NextSubscriptionRenewal"])
        self.assertEqual(entry["DomainName"], TEST_DOMAIN)
        self.assertEqual(entry["PwnCount"], 12)
        self.assertEqual(entry["PwnCountExcludingSpamLists"], 11, "spam-list-only is only in a spam list")
        self.assertEqual(entry["PwnCountExcludingSpamListsAtLastSubscriptionRenewal"], 11)
        self.assertRegex(entry["NextSubscriptionRenewal"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        config = self.configure(domains=["example.com", "Example.org", "example.com"])
        self.assertEqual(config["domains"], ["example.com", "example.org"])
        found = self.get("/api/v3/subscribeddomains").json()
        self.assertEqual([(d["DomainName"], d["PwnCount"]) for d in found], [("example.com", 0), ("example.org", 0)])
        self.configure(domains=[])
        self.assertEqual(self.get("/api/v3/subscribeddomains").json(), [])
        self.assertEqual(self.get("/api/v3/subscribeddomains", key=TEST_KEY).status, 401)
        self.assertEqual(self.get("/api/v3/subscribeddomains", key=None).status, 401)
        for bad in ({"domains": "example.com"}, {"domains": ["no spaces.com"]}, {"stealer_logs": "yes"},
                    {"entitlements": {"xyz": {}}}, {"entitlements": {KEY: {"rpm": 5}}},
                    {"entitlements": {KEY: {"domains": [1]}}}, {"entitlements": []}):
            self.assertEqual(self.control("POST", "config", bad).status, 400, bad)
        self.assertEqual(self.control("GET", "config").json()["domains"], [], "a refused change changes nothing")


class NewsTests(ServerTestCase):
    """/__control/breaches and /__control/accounts: what a monitoring run sees change."""

    def add_breach(self, **fields):
        r = self.control("POST", "breaches", fields)
        self.assertEqual(r.status, 200, r.body)
        return r.json()

    def add_to_account(self, **body):
        r = self.control("POST", "accounts", body)
        self.assertEqual(r.status, 200, r.body)
        return r.json()

    def test_a_new_breach_joins_the_catalog_and_becomes_the_latest(self):
        before = len(self.get("/api/v3/breaches").json())
        answer = self.add_breach(Name="FreshLeak", Domain="freshleak.example", DataClasses=["Passwords", "Bird names"])
        self.assertIs(answer["created"], True)
        breach = answer["breach"]
        self.assertEqual(breach["Title"], "FreshLeak")
        self.assertEqual(breach["DataClasses"], ["Bird names", "Passwords"], "kept alphabetical")
        self.assertEqual(breach["ModifiedDate"], breach["AddedDate"])
        self.assertEqual(breach["BreachDate"], breach["AddedDate"][:10])
        self.assertIs(breach["IsVerified"], True)
        for flag in fake_hibp.BREACH_FLAGS[1:]:
            self.assertIs(breach[flag], False, flag)
        everything = self.get("/api/v3/breaches").json()
        self.assertEqual(len(everything), before + 1)
        self.assertEqual(self.get("/api/v3/breach/freshleak").json(), breach)
        self.assertEqual(self.get("/api/v3/latestbreach").json(), breach)
        self.assertEqual(self.get("/api/v3/breaches?Domain=freshleak.example").json(), [breach])
        self.assertIn("Bird names", self.get("/api/v3/dataclasses").json())

    def test_updating_a_breach_moves_its_modified_date(self):
        adobe = self.get("/api/v3/breach/Adobe").json()
        first = self.add_breach(Name="adobe", PwnCount=152445166)
        self.assertIs(first["created"], False)
        self.assertEqual(first["breach"]["Name"], "Adobe", "the stored Name keeps its spelling")
        self.assertEqual(first["breach"]["PwnCount"], 152445166)
        self.assertEqual(first["breach"]["Description"], adobe["Description"], "a partial update keeps the rest")
        self.assertEqual(first["breach"]["AddedDate"], adobe["AddedDate"])
        self.assertGreater(first["breach"]["ModifiedDate"], adobe["ModifiedDate"])
        second = self.add_breach(Name="Adobe", Title="Adobe (updated)")
        self.assertGreater(second["breach"]["ModifiedDate"], first["breach"]["ModifiedDate"],
                           "every update is news, even within the same second")
        self.assertEqual(self.get("/api/v3/breach/Adobe").json(), second["breach"])
        set_dates = self.add_breach(Name="Adobe", ModifiedDate="2030-01-02T03:04:05Z")
        self.assertEqual(set_dates["breach"]["ModifiedDate"], "2030-01-02T03:04:05Z")
        old = self.add_breach(Name="OldNews", AddedDate="2001-02-03T04:05:06Z")["breach"]
        self.assertEqual((old["ModifiedDate"], old["BreachDate"]), ("2001-02-03T04:05:06Z", "2001-02-03"))
        self.assertNotEqual(self.get("/api/v3/latestbreach").json()["Name"], "OldNews")

    def test_bad_breach_bodies_are_refused(self):
        for bad in ({}, {"Name": ""}, {"Name": "has space"}, {"Name": 5}, {"Name": "X", "PwnCount": True},
                    {"Name": "X", "PwnCount": -1}, {"Name": "X", "AddedDate": "2020-01-01"},
                    {"Name": "X", "ModifiedDate": "2020-02-30T00:00:00Z"}, {"Name": "X", "BreachDate": "yesterday"},
                    {"Name": "X", "IsSensitive": "no"}, {"Name": "X", "DataClasses": "Passwords"},
                    {"Name": "X", "Attribution": 1}, {"Name": "X", "Title": None}, ["Name"]):
            r = self.control("POST", "breaches", bad)
            self.assertEqual(r.status, 400, bad)
            self.assertIn("error", r.json())
        self.assertEqual(self.get("/api/v3/breach/X").status, 404)
        self.assertEqual(self.control("GET", "breaches").status, 405)
        self.assertEqual(self.control("GET", "accounts").status, 405)

    def test_unknown_fields_are_kept_as_the_real_api_may_send_them(self):
        breach = self.add_breach(Name="Futuristic", FutureField={"x": [1, 2]})["breach"]
        self.assertEqual(self.get("/api/v3/breach/Futuristic").json()["FutureField"], {"x": [1, 2]})
        self.assertEqual(breach["FutureField"], {"x": [1, 2]})

    def test_breaches_added_to_an_account_show_everywhere(self):
        account = "clean-monitored@example.com"
        self.configure(domains=["example.com"])
        self.assertEqual(self.breaches_of(account), 404)
        self.assertEqual(self.get("/api/v3/breacheddomain/example.com").status, 404)
        self.add_breach(Name="FreshLeak", Domain="freshleak.example")
        answer = self.add_to_account(account=" Clean-Monitored@Example.com", breaches=["freshleak", "Adobe"],
                                     pastes=[{"Source": "Pastebin", "Id": "Ab12Cd34", "Title": "dump",
                                              "Date": "2024-01-02T03:04:05Z", "EmailCount": 99}, {}],
                                     stealerLogs=["Shop.Example"])
        self.assertEqual(answer["account"], account)
        self.assertEqual(answer["added"]["breaches"], ["FreshLeak", "Adobe"])
        self.assertEqual(answer["added"]["stealerLogs"], ["shop.example"])
        truncated = self.account("breachedaccount", account).json()
        self.assertEqual(truncated, [{"Name": "Adobe"}, {"Name": "FreshLeak"}])
        full = self.breaches_of(account)
        self.assertEqual(full[1], self.get("/api/v3/breach/FreshLeak").json())
        self.assertEqual(self.account("breachedaccount", account, "?domain=freshleak.example").json(),
                         [{"Name": "FreshLeak"}])
        pastes = self.account("pasteaccount", account).json()
        self.assertEqual(len(pastes), 2)
        self.assertEqual(pastes[1], {"Source": "Pastebin", "Id": "Ab12Cd34", "Title": "dump",
                                     "Date": "2024-01-02T03:04:05Z", "EmailCount": 99}, "newest first")
        self.assertEqual(set(pastes[0]), {"Source", "Id", "Title", "Date", "EmailCount"})
        self.assertEqual(self.account("stealerlogsbyemail", account).json(), ["shop.example"])
        self.assertEqual(self.get("/api/v3/breacheddomain/example.com").json(),
                         {"clean-monitored": ["Adobe", "FreshLeak"]})
        [domain] = self.get("/api/v3/subscribeddomains").json()
        self.assertEqual((domain["PwnCount"], domain["PwnCountExcludingSpamLists"],
                          domain["PwnCountExcludingSpamListsAtLastSubscriptionRenewal"]), (1, 1, 0))
        # More news adds to what is there; nothing disappears.
        again = self.add_to_account(account=account, breaches=["Adobe", "Brightmere"])
        self.assertEqual(again["added"]["breaches"], ["FreshLeak", "Adobe", "Brightmere"])
        self.assertEqual(len(self.account("breachedaccount", account).json()), 3)
        # A modified breach is served modified to the account too.
        self.add_breach(Name="FreshLeak", PwnCount=7)
        self.assertEqual([b["PwnCount"] for b in self.breaches_of(account) if b["Name"] == "FreshLeak"], [7])

    def test_additions_keep_what_the_account_had(self):
        base = [b["Name"] for b in self.breaches_of("multiple-breaches@" + TEST_DOMAIN, key=TEST_KEY)]
        self.add_breach(Name="FreshLeak")
        self.add_to_account(account="multiple-breaches@" + TEST_DOMAIN, breaches=["FreshLeak"])
        after = [b["Name"] for b in self.breaches_of("multiple-breaches@" + TEST_DOMAIN, key=TEST_KEY)]
        self.assertEqual(after, sorted(base + ["FreshLeak"], key=str.lower))
        self.assertEqual(self.get("/api/v3/breacheddomain/" + TEST_DOMAIN).json()["multiple-breaches"], after)

    def test_sensitive_news_is_for_the_domain_owner_and_the_verified_owner(self):
        self.configure(domains=["example.com"])
        self.add_breach(Name="QuietLeak", IsSensitive=True)
        self.add_to_account(account="clean-a@example.com", breaches=["QuietLeak"])
        self.assertEqual(self.breaches_of("clean-a@example.com"), 404)
        self.assertEqual(self.get("/api/v3/breacheddomain/example.com").json(), {"clean-a": ["QuietLeak"]})
        self.add_to_account(account="clean-a@example.com", ownerVerified=True)
        self.assertEqual(self.account("breachedaccount", "clean-a@example.com").json(), [{"Name": "QuietLeak"}])
        self.add_breach(Name="QuietLeak", IsRetired=True)
        self.assertEqual(self.get("/api/v3/breacheddomain/example.com").status, 404, "retired: gone everywhere")
        self.assertEqual(self.breaches_of("clean-a@example.com"), 404)

    def test_bad_account_bodies_are_refused(self):
        for bad in ({}, {"account": ""}, {"account": "a\u0000b@example.com"}, {"account": "x" * 300},
                    {"account": "a@example.com", "breaches": ["NoSuchBreach"]},
                    {"account": "a@example.com", "breaches": "Adobe"},
                    {"account": "a@example.com", "pastes": [{"Nope": 1}]},
                    {"account": "a@example.com", "pastes": [{"Date": "today"}]},
                    {"account": "a@example.com", "pastes": [{"EmailCount": -1}]},
                    {"account": "a@example.com", "pastes": {}},
                    {"account": "a@example.com", "stealerLogs": ["bad domain"]},
                    {"account": "a@example.com", "ownerVerified": "yes"},
                    {"account": "a@example.com", "colour": "red"}, ["a@example.com"]):
            r = self.control("POST", "accounts", bad)
            self.assertEqual(r.status, 400, bad)
            self.assertIn("error", r.json())
        self.assertEqual(self.breaches_of("clean-x@example.com"), 404)

    def test_reset_data_restores_the_start_up_catalog_and_accounts(self):
        everything = self.get("/api/v3/breaches").body
        latest = self.get("/api/v3/latestbreach").body
        self.add_breach(Name="FreshLeak")
        self.add_breach(Name="Adobe", Title="changed")
        self.add_to_account(account="clean-r@example.com", breaches=["FreshLeak"])
        self.control("POST", "reset")
        self.assertEqual(self.account("breachedaccount", "clean-r@example.com").status, 200,
                         "a plain reset keeps the data")
        self.control("POST", "reset", {"data": True})
        self.assertEqual(self.get("/api/v3/breaches").body, everything)
        self.assertEqual(self.get("/api/v3/latestbreach").body, latest)
        self.assertEqual(self.get("/api/v3/breach/FreshLeak").status, 404)
        self.assertEqual(self.account("breachedaccount", "clean-r@example.com").status, 404)
        self.assertEqual(self.control("POST", "reset", {"everything": True}).status, 400)

    def test_new_breaches_do_not_change_the_deterministic_accounts(self):
        before = [self.account("breachedaccount", "pwned.d%d@example.com" % i).body for i in range(10)]
        for i in range(5):
            self.add_breach(Name="Extra%d" % i)
        after = [self.account("breachedaccount", "pwned.d%d@example.com" % i).body for i in range(10)]
        self.assertEqual(after, before)

    def test_log_and_stats_count_the_new_endpoints(self):
        self.get("/api/v3/stealerlogsbyemail/stealer-log%40" + TEST_DOMAIN)
        self.get("/api/v3/breacheddomain/" + TEST_DOMAIN)
        self.get("/api/v3/breacheddomain/example.com")
        self.get("/api/v3/subscribeddomains")
        self.get("/api/v3/breachedaccount/clean@example.com")
        self.get("/range/ABCDE", key=None)
        self.get("/favicon.ico")
        self.control("POST", "breaches", {"Name": "NotLogged"})
        paths = [e["path"] for e in self.control("GET", "log").json()]
        self.assertEqual(paths, ["/api/v3/stealerlogsbyemail/stealer-log%40" + TEST_DOMAIN,
                                 "/api/v3/breacheddomain/" + TEST_DOMAIN, "/api/v3/breacheddomain/example.com",
                                 "/api/v3/subscribeddomains", "/api/v3/breachedaccount/clean@example.com",
                                 "/range/ABCDE", "/favicon.ico"])
        stats = self.control("GET", "stats").json()
        self.assertEqual(stats["by_endpoint"], {"breachedaccount": 1, "breacheddomain": 2, "other": 1, "range": 1,
                                                "stealerlogsbyemail": 1, "subscribeddomains": 1})
        self.assertEqual(stats["total"], 7)


class CatalogCoverageTests(unittest.TestCase):
    """The catalog must exercise every field and flag a client has to handle."""

    @classmethod
    def setUpClass(cls):
        with open(os.path.join(HERE, "catalog.json"), encoding="utf-8") as f:
            cls.breaches = json.load(f)["breaches"]

    def with_flag(self, flag, value):
        return [b["Name"] for b in self.breaches if flag in b and b[flag] is value]

    def test_size_and_unique_names(self):
        names = [b["Name"] for b in self.breaches]
        self.assertGreaterEqual(len(names), 40)
        self.assertEqual(len({n.lower() for n in names}), len(names))
        for needed in ("Adobe",):
            self.assertIn(needed, names)
        for _, (listed, _) in fake_hibp.TEST_ACCOUNTS.items():
            self.assertTrue(set(listed) <= set(names))

    def test_every_flag_is_true_somewhere_and_false_elsewhere(self):
        for flag in ("IsVerified", "IsFabricated", "IsSensitive", "IsRetired", "IsSpamList", "IsMalware",
                     "IsSubscriptionFree", "IsStealerLog"):
            self.assertTrue(self.with_flag(flag, True), flag + " is never true")
            self.assertTrue(self.with_flag(flag, False), flag + " is never false")

    def test_missing_and_extra_fields(self):
        for field in ("IsMalware", "IsSubscriptionFree", "IsStealerLog", "IsRetired", "IsSpamList",
                      "Attribution", "DisclosureUrl"):
            self.assertTrue([b for b in self.breaches if field not in b], field + " is never missing")
        known = set(fake_hibp.Catalog.REQUIRED) | {"IsRetired", "IsSpamList", "IsMalware", "IsSubscriptionFree",
                                                   "IsStealerLog", "Attribution", "DisclosureUrl"}
        self.assertTrue([b for b in self.breaches if set(b) - known], "no entry has an unknown extra field")

    def test_values_a_client_must_cope_with(self):
        self.assertTrue([b for b in self.breaches if b["PwnCount"] > 2 ** 31])
        self.assertTrue([b for b in self.breaches if b["Domain"] == ""])
        for field in ("Attribution", "DisclosureUrl"):
            self.assertTrue([b for b in self.breaches if field in b and b[field] is None], field + " never null")
            self.assertTrue([b for b in self.breaches if isinstance(b.get(field), str)], field + " never set")
        descriptions = " ".join(b["Description"] for b in self.breaches)
        for fragment in ("<a href=", "<em>", "<strong>", "&quot;", "&amp;", "&#39;", "&eacute;"):
            self.assertIn(fragment, descriptions)
        for b in self.breaches:
            self.assertRegex(b["BreachDate"], r"^\d{4}-\d\d-\d\d$")
            for field in ("AddedDate", "ModifiedDate"):
                self.assertRegex(b[field], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
            self.assertEqual(b["DataClasses"], sorted(b["DataClasses"], key=str.casefold), b["Name"])

    def test_terminal_escape_entries(self):
        def dirty(text):
            return {"ESC": "\x1b" in text, "CSI": "\x1b[" in text or "\x9b" in text,
                    "OSC": "\x1b]" in text or "\x9d" in text, "BEL": "\x07" in text,
                    "C1": bool(re.search("[\x80-\x9f]", text))}

        carriers = [b for b in self.breaches if any(dirty(b["Title"]).values()) and any(dirty(b["Description"]).values())]
        self.assertGreaterEqual(len(carriers), 2)
        seen = {kind for b in carriers for text in (b["Title"], b["Description"])
                for kind, present in dirty(text).items() if present}
        self.assertEqual(seen, {"ESC", "CSI", "OSC", "BEL", "C1"})


if __name__ == "__main__":
    unittest.main()
