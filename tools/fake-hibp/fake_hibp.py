#!/usr/bin/env python3
"""fake-hibp: an imitation of the Have I Been Pwned API v3 and the Pwned Passwords range API.

Test tooling for pwnvault's end-to-end tests, demo and benchmarks; never installed with the product.
It listens on 127.0.0.1 only, uses the Python 3 standard library only, and follows the contract in
docs/hibp-api.md (status codes, headers, JSON shapes, test key and test accounts). A /__control/ API
lets tests inject faults, change the rate limit and latency, and read what the server received.
See README.md next to this file for the full reference.
"""

import argparse
import collections
import datetime
import hashlib
import http.server
import json
import math
import os
import re
import signal
import socket
import struct
import sys
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CATALOG = os.path.join(HERE, "catalog.json")
DEFAULT_PASSWORDS = os.path.join(HERE, "passwords.json")

DEFAULT_KEY = "1" * 32
TEST_KEY = "0" * 32
TEST_DOMAIN = "hibp-integration-tests.com"

# Bounds: everything a client can make the server hold is capped.
MAX_CONNECTIONS = 64            # concurrent connections; beyond it: 503 and close
IDLE_TIMEOUT_S = 30             # socket timeout: idle keep-alive connections are closed after it
MAX_REQUEST_BODY = 64 * 1024    # bytes; larger bodies get 413 and the connection is closed
MAX_ACCOUNT_LENGTH = 256        # characters, after decoding; longer accounts get 400
LOG_CAPACITY = 10_000           # request-log entries kept (oldest dropped first)
MAX_PENDING_FAULTS = 10_000     # queued injected faults
OVERSIZED_BYTES = 12 * 1024 * 1024
MAX_RUNTIME_BREACHES = 10_000   # breaches /__control/breaches may add
MAX_RUNTIME_ACCOUNTS = 10_000   # accounts /__control/accounts may change

FAULT_KINDS = ("503", "500", "400", "429", "timeout", "malformed", "oversized", "drop")
# "429:N": a 429 whose retry-after (and message) says N seconds, 1 to 999999999.
RETRY_AFTER_FAULT = re.compile(r"429:[1-9][0-9]{0,8}")
# "ENDPOINT=KIND": a fault for the next requests to one service only (as `endpoint_of` names it:
# "breacheddomain", "subscribeddomains", "range", "subscription/status", ...), e.g. "breacheddomain=429:30".
ENDPOINT_FAULT = re.compile(r"([a-z]{1,40}(?:/[a-z]{1,40})?)=(.+)")
ACCOUNT_FAULTS = ("fault-503", "fault-400", "fault-malformed", "fault-oversized", "fault-timeout",
                  "fault-escape")

# What the hibp-integration-tests.com accounts hold. Hidden breaches (sensitive, retired) are listed
# too: the same filter that serves every account removes them, which is what the contract describes.
TEST_ACCOUNTS = {
    "account-exists": (["Adobe"], 1),
    "multiple-breaches": (["Adobe", "Brightmere", "Lanternfish"], 0),
    "not-active-and-active-breach": (["Adobe", "OldHarbourForum"], 0),
    "not-active-breach": (["OldHarbourForum"], 0),
    "opt-out": ([], 0),
    "opt-out-breach": ([], 0),
    "permanent-opt-out": ([], 0),
    "paste-sensitive-breach": (["VelvetRendezvous"], 1),
    "sensitive-and-other-breaches": (["VelvetRendezvous", "Adobe", "Brightmere"], 0),
    "sensitive-breach": (["VelvetRendezvous"], 0),
    "spam-list-only": (["MailSpindle"], 0),
    "spam-list-and-others": (["MailSpindle", "Adobe", "Lanternfish"], 0),
    "subscription-free-breach": (["TrailmarkOutdoors"], 0),
    "subscription-free-and-other-breaches": (["TrailmarkOutdoors", "Adobe", "Brightmere"], 0),
    "stealer-log": (["StealerHarvest2024"], 0),
    "unverified-breach": (["CopperKettle"], 0),
}

# Website domains whose credentials an info stealer captured together with the address
# (stealerlogsbyemail). Only the account in a stealer-log breach has them.
TEST_STEALER_LOGS = {
    "stealer-log": ["brightmere.io", "login.dunerunner.app", "mail.orchardmail.net"],
}

PASTE_SOURCES = ("Pastebin", "Pastie", "Slexy", "Ghostbin", "QuickLeak", "JustPaste", "AdHocUrl")

BLOCKED_HTML = (
    "<!DOCTYPE html>\n<html lang=\"en-US\">\n<head><title>Request Blocked</title></head>\n<body>\n"
    "<h1>Request Blocked</h1>\n<p>The request was blocked because it did not identify the client "
    "(a user agent is required) or the key was blocked.</p>\n<p>Ray ID: {ray}</p>\n</body>\n</html>\n")
UNAVAILABLE_HTML = (
    "<!DOCTYPE html>\n<html>\n<head><title>503 Service Temporarily Unavailable</title></head>\n<body>\n"
    "<h1>Service Temporarily Unavailable</h1>\n<p>The origin is unavailable. Ray ID: {ray}</p>\n"
    "</body>\n</html>\n")


# --------------------------------------------------------------------------------------------------
# JSON the way the real API writes it
# --------------------------------------------------------------------------------------------------

_JSON_SAFE = frozenset(chr(c) for c in range(0x20, 0x7F)) - frozenset("\"\\<>&'+`")
_JSON_SHORT = {"\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def _json_string(text):
    """Encodes a string as HIBP's ASP.NET serialiser does: HTML-sensitive characters (< > & ' + `),
    control characters and everything outside ASCII become upper-case \\uXXXX escapes."""
    out = ["\""]
    for ch in text:
        if ch in _JSON_SAFE:
            out.append(ch)
        elif ch in _JSON_SHORT:
            out.append(_JSON_SHORT[ch])
        else:
            cp = ord(ch)
            if cp > 0xFFFF:
                cp -= 0x10000
                out.append("\\u%04X\\u%04X" % (0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF)))
            else:
                out.append("\\u%04X" % cp)
    out.append("\"")
    return "".join(out)


def to_json(value):
    """Serialises dicts, lists, strings, ints, bools and None compactly, with HIBP-style escapes."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _json_string(value)
    if isinstance(value, dict):
        return "{" + ",".join(_json_string(str(k)) + ":" + to_json(v) for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(to_json(v) for v in value) + "]"
    if isinstance(value, float):
        return repr(value)
    raise TypeError("cannot serialise %r" % type(value))


# --------------------------------------------------------------------------------------------------
# MD4, for NTLM hashes (hashlib's md4 depends on OpenSSL's legacy provider, often absent)
# --------------------------------------------------------------------------------------------------

def md4(data):
    """MD4 digest (RFC 1320) of bytes."""
    mask = 0xFFFFFFFF

    def rotl(v, s):
        v &= mask
        return ((v << s) | (v >> (32 - s))) & mask

    message = bytearray(data)
    bit_length = (8 * len(data)) & 0xFFFFFFFFFFFFFFFF
    message.append(0x80)
    while len(message) % 64 != 56:
        message.append(0)
    message += struct.pack("<Q", bit_length)
    a, b, c, d = 0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476
    for offset in range(0, len(message), 64):
        x = struct.unpack("<16I", message[offset:offset + 64])
        aa, bb, cc, dd = a, b, c, d
        for i in range(4):
            a = rotl(a + ((b & c) | (~b & d)) + x[4 * i], 3)
            d = rotl(d + ((a & b) | (~a & c)) + x[4 * i + 1], 7)
            c = rotl(c + ((d & a) | (~d & b)) + x[4 * i + 2], 11)
            b = rotl(b + ((c & d) | (~c & a)) + x[4 * i + 3], 19)
        for i in range(4):
            a = rotl(a + ((b & c) | (b & d) | (c & d)) + x[i] + 0x5A827999, 3)
            d = rotl(d + ((a & b) | (a & c) | (b & c)) + x[i + 4] + 0x5A827999, 5)
            c = rotl(c + ((d & a) | (d & b) | (a & b)) + x[i + 8] + 0x5A827999, 9)
            b = rotl(b + ((c & d) | (c & a) | (d & a)) + x[i + 12] + 0x5A827999, 13)
        for i in (0, 2, 1, 3):
            a = rotl(a + (b ^ c ^ d) + x[i] + 0x6ED9EBA1, 3)
            d = rotl(d + (a ^ b ^ c) + x[i + 8] + 0x6ED9EBA1, 9)
            c = rotl(c + (d ^ a ^ b) + x[i + 4] + 0x6ED9EBA1, 11)
            b = rotl(b + (c ^ d ^ a) + x[i + 12] + 0x6ED9EBA1, 15)
        a, b, c, d = (a + aa) & mask, (b + bb) & mask, (c + cc) & mask, (d + dd) & mask
    return struct.pack("<4I", a, b, c, d)


def ntlm_hex(password):
    """Upper-case hex NTLM hash (MD4 of UTF-16LE) of a password."""
    return md4(password.encode("utf-16-le")).hex().upper()


def sha1_hex(password):
    return hashlib.sha1(password.encode("utf-8")).hexdigest().upper()


# --------------------------------------------------------------------------------------------------
# Data: breach catalog, passwords, accounts
# --------------------------------------------------------------------------------------------------

class DataError(Exception):
    """A data file (catalog, passwords, fixtures) is unusable."""


_CONTROL_CHARS = re.compile("[\x00-\x1f\x7f-\x9f]")


BREACH_FLAGS = ("IsVerified", "IsFabricated", "IsSensitive", "IsRetired", "IsSpamList", "IsMalware",
                "IsSubscriptionFree", "IsStealerLog")
_BREACH_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")
_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
_DAY = re.compile(r"\d{4}-\d\d-\d\d")
_DOMAIN = re.compile(r"(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+")


def _parse_stamp(text):
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)


def utc_stamp(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def validate_breach_fields(fields):
    """Checks a full or partial Breach object from the control API; returns it with Name and
    DataClasses tidied. Fields the model does not know are kept (clients must ignore them)."""
    if not isinstance(fields, dict):
        raise ValueError("the body must be a Breach object, e.g. {\"Name\": \"NewBreach\"}")
    fields = dict(fields)
    name = fields.get("Name")
    if not isinstance(name, str) or not _BREACH_NAME.fullmatch(name):
        raise ValueError("Name is required: 1-100 letters, digits, '_', '.', '-', starting with a letter or digit")
    for field in ("Title", "Domain", "Description", "LogoPath"):
        if field in fields and not isinstance(fields[field], str):
            raise ValueError("%s must be a string" % field)
    for field in ("AddedDate", "ModifiedDate"):
        if field in fields:
            if not isinstance(fields[field], str) or not _STAMP.fullmatch(fields[field]):
                raise ValueError("%s must look like 2015-10-26T23:35:45Z" % field)
            try:
                _parse_stamp(fields[field])
            except ValueError:
                raise ValueError("%s is not a real date and time" % field) from None
    if "BreachDate" in fields:
        value = fields["BreachDate"]
        try:
            if not isinstance(value, str) or not _DAY.fullmatch(value):
                raise ValueError
            datetime.date.fromisoformat(value)
        except ValueError:
            raise ValueError("BreachDate must be a date like 2015-10-26") from None
    if "PwnCount" in fields:
        value = fields["PwnCount"]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError("PwnCount must be a whole number >= 0")
    if "DataClasses" in fields:
        value = fields["DataClasses"]
        if not isinstance(value, list) or not all(isinstance(c, str) and c for c in value):
            raise ValueError("DataClasses must be a list of non-empty strings")
        fields["DataClasses"] = sorted(set(value), key=str.casefold)
    for flag in BREACH_FLAGS:
        if flag in fields and not isinstance(fields[flag], bool):
            raise ValueError("%s must be true or false" % flag)
    for field in ("Attribution", "DisclosureUrl"):
        if field in fields and fields[field] is not None and not isinstance(fields[field], str):
            raise ValueError("%s must be a string or null" % field)
    return fields


def normalise_domain(raw):
    """A domain, trimmed and lower-cased, or None when it is not a plausible DNS name."""
    domain = raw.strip().lower()
    return domain if _DOMAIN.fullmatch(domain) else None


class Catalog:
    """The breaches, loaded from catalog.json, with their pre-serialised JSON."""

    REQUIRED = ("Name", "Title", "Domain", "BreachDate", "AddedDate", "ModifiedDate", "PwnCount",
                "Description", "LogoPath", "DataClasses", "IsVerified", "IsFabricated", "IsSensitive")

    def __init__(self, path):
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            raise DataError("cannot read the catalog %s: %s" % (path, e)) from e
        breaches = data.get("breaches")
        if not isinstance(breaches, list) or not breaches:
            raise DataError("the catalog %s has no \"breaches\" list" % path)
        self._build(breaches, data.get("otherDataClasses", []))

    def _build(self, breaches, other_classes):
        self.breaches = breaches
        self.other_classes = list(other_classes)
        self.by_lower_name = {}
        for entry in breaches:
            missing = [field for field in self.REQUIRED if field not in entry]
            if missing:
                raise DataError("catalog entry %r lacks %s" % (entry.get("Name"), ", ".join(missing)))
            if entry["Name"].lower() in self.by_lower_name:
                raise DataError("catalog entry %r appears twice" % entry["Name"])
            self.by_lower_name[entry["Name"].lower()] = entry
        self.json = {e["Name"]: to_json(e) for e in breaches}
        self.all_json = ("[" + ",".join(self.json[e["Name"]] for e in breaches) + "]").encode("ascii")
        self.latest = max(breaches, key=lambda e: e["AddedDate"])
        classes = {c for e in breaches for c in e["DataClasses"]}
        classes.update(self.other_classes)
        self.data_classes = sorted(classes, key=str.casefold)
        # Entries that the deterministic account rule may hand out: visible to breachedaccount and
        # free of control characters (those are reserved for the fault-escape account).
        self.escape_names = [e["Name"] for e in breaches if self.has_control_chars(e)]
        self.eligible_names = [e["Name"] for e in breaches
                               if self.is_listable(e) and not self.has_control_chars(e)]

    def upserted(self, fields, now):
        """A new Catalog with `fields` (a full or partial Breach, Name required) added or merged into
        the entry of that Name; returns (catalog, entry, created). The catalog itself never changes,
        so a request that holds it keeps a consistent view. Raises ValueError for bad fields."""
        fields = validate_breach_fields(fields)
        stamp = now.strftime("%Y-%m-%dT%H:%M:%SZ")
        existing = self.get(fields["Name"])
        if existing is None:
            added = fields.get("AddedDate", stamp)
            entry = {"Name": fields["Name"], "Title": fields["Name"], "Domain": "", "BreachDate": added[:10],
                     "AddedDate": added, "ModifiedDate": added, "PwnCount": 1000,
                     "Description": "A breach added at run time by a test through the fake-hibp control API.",
                     "LogoPath": "https://logos.haveibeenpwned.com/%s.png" % fields["Name"],
                     "Attribution": None, "DisclosureUrl": None,
                     "DataClasses": ["Email addresses", "Passwords"]}
            entry.update((flag, False) for flag in BREACH_FLAGS)
            entry["IsVerified"] = True
            entry.update(fields)
            breaches = self.breaches + [entry]
        else:
            entry = dict(existing)
            entry.update((k, v) for k, v in fields.items() if k != "Name")
            if "ModifiedDate" not in fields:
                # An update is news: ModifiedDate moves forward, by at least a second.
                previous = _parse_stamp(existing["ModifiedDate"])
                moved = max(now.replace(microsecond=0), previous + datetime.timedelta(seconds=1))
                entry["ModifiedDate"] = moved.strftime("%Y-%m-%dT%H:%M:%SZ")
            breaches = [entry if e is existing else e for e in self.breaches]
        catalog = object.__new__(Catalog)
        catalog._build(breaches, self.other_classes)
        return catalog, entry, existing is None

    def get(self, name):
        """The entry for a Name, case-insensitively, or None."""
        return self.by_lower_name.get(name.lower())

    def canonical(self, name):
        entry = self.get(name)
        if entry is None:
            raise DataError("unknown breach name %r" % name)
        return entry["Name"]

    @staticmethod
    def is_listable(entry):
        """Whether breachedaccount may return this breach: never sensitive or retired ones."""
        return not entry.get("IsSensitive", False) and not entry.get("IsRetired", False)

    @staticmethod
    def has_control_chars(entry):
        return bool(_CONTROL_CHARS.search(entry["Title"]) or _CONTROL_CHARS.search(entry["Description"]))


class PasswordCorpus:
    """Known pwned passwords by hash, for the /range endpoint in both SHA-1 and NTLM modes."""

    def __init__(self, path, extra=None):
        try:
            with open(path, encoding="utf-8") as f:
                passwords = dict(json.load(f)["passwords"])
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise DataError("cannot read the passwords %s: %s" % (path, e)) from e
        passwords.update(extra or {})
        self.by_mode = {"sha1": {}, "ntlm": {}}
        for password, count in passwords.items():
            if not isinstance(count, int) or count < 1:
                raise DataError("password count for %r must be a positive integer" % password)
            for mode, digest in (("sha1", sha1_hex(password)), ("ntlm", ntlm_hex(password))):
                self.by_mode[mode].setdefault(digest[:5], {})[digest[5:]] = count

    def lines(self, prefix, mode, padded):
        """The `SUFFIX:COUNT` lines for a 5-hex-digit prefix, sorted by suffix."""
        prefix = prefix.upper()
        suffix_length = 35 if mode == "sha1" else 27
        entries = dict(self.by_mode[mode].get(prefix, {}))
        # Deterministic filler so that every prefix looks like a real, populated one.
        seed = hashlib.sha256(("range:%s:%s" % (mode, prefix)).encode()).digest()
        filler = 300 + int.from_bytes(seed[:2], "big") % 400
        for i in range(filler):
            h = hashlib.sha256(seed + i.to_bytes(4, "big")).hexdigest().upper()
            entries.setdefault(h[:suffix_length], 1 + int(h[40:46], 16) % 2500)
        if padded:
            target = 800 + int.from_bytes(os.urandom(2), "big") % 201
            while len(entries) < target:
                entries.setdefault(os.urandom(18).hex().upper()[:suffix_length], 0)
        return ["%s:%d" % (suffix, entries[suffix]) for suffix in sorted(entries)]


class AccountRecord:
    """What the server holds about one account: breach Names (hidden ones included), pastes, fault."""

    def __init__(self, breaches, pastes, fault=None, owner_verified=False, stealer_logs=()):
        self.breaches = breaches
        self.pastes = pastes
        self.fault = fault
        self.stealer_logs = sorted(set(stealer_logs))
        # HIBP shows sensitive breaches to an address's verified owner (domain search, notifications);
        # a fixture can stand for such an owner's view.
        self.owner_verified = owner_verified


class AccountBook:
    """Decides, for every account, what the server knows about it (test table, fixtures, hash)."""

    def __init__(self, catalog, fixtures=None):
        self.catalog = catalog
        self.fixtures = {}
        for account, spec in (fixtures or {}).items():
            if not isinstance(spec, dict):
                raise DataError("fixture for %r must be an object" % account)
            names = [catalog.canonical(n) for n in spec.get("breaches", [])]
            pastes = spec.get("pastes", 0)
            if not isinstance(pastes, int) or not 0 <= pastes <= 1000:
                raise DataError("fixture pastes for %r must be an integer 0...1000" % account)
            owner = spec.get("ownerVerified", False)
            if not isinstance(owner, bool):
                raise DataError("fixture ownerVerified for %r must be true or false" % account)
            try:
                stealer_logs = validate_website_domains(spec.get("stealerLogs", []))
            except ValueError as e:
                raise DataError("fixture stealerLogs for %r: %s" % (account, e)) from None
            self.fixtures[normalise_account(account)] = (names, pastes, owner, stealer_logs)
        for local, (names, _) in TEST_ACCOUNTS.items():
            for name in names:
                catalog.canonical(name)
        self.stealer_breaches = {e["Name"] for e in catalog.breaches if e.get("IsStealerLog", False)}
        # Where the deterministic rule's stealer-log victims logged in: the catalog's own domains.
        self.website_pool = sorted({e["Domain"].lower() for e in catalog.breaches
                                    if e["Domain"] and catalog.is_listable(e) and not catalog.has_control_chars(e)})

    def known_accounts(self, domain):
        """Accounts on `domain` that the server can enumerate (test table and fixtures); the
        deterministic rule covers every other address but lists none."""
        known = ["%s@%s" % (local, TEST_DOMAIN) for local in TEST_ACCOUNTS] if domain == TEST_DOMAIN else []
        known += [a for a in self.fixtures if split_account(a)[1] == domain]
        return known

    def lookup(self, account):
        local, domain = split_account(account)
        fault = local if local in ACCOUNT_FAULTS else None
        if domain == TEST_DOMAIN and local in TEST_ACCOUNTS:
            names, paste_count = TEST_ACCOUNTS[local]
            stealer_logs = TEST_STEALER_LOGS.get(local, [])
        elif account in self.fixtures:
            names, paste_count, owner, stealer_logs = self.fixtures[account]
            return AccountRecord(list(names), self._pastes(account, paste_count, escape=False), fault, owner,
                                 stealer_logs)
        else:
            names, paste_count = self._deterministic(account, local)
            stealer_logs = self._stealer_logs(account, names)
        pastes = self._pastes(account, paste_count, escape=fault == "fault-escape")
        if fault == "fault-escape":
            names = names + [n for n in self.catalog.escape_names if n not in names]
        return AccountRecord(list(names), pastes, fault, stealer_logs=stealer_logs)

    def _stealer_logs(self, account, names):
        """1-4 website domains, chosen by a hash, for an address the rule put in a stealer-log breach."""
        if "@" not in account or not self.stealer_breaches.intersection(names):
            return []
        h = hashlib.sha256(("stealer:" + account).encode("utf-8")).digest()
        ranked = sorted(self.website_pool,
                        key=lambda d: hashlib.sha256(("%s\0%s" % (account, d)).encode("utf-8")).digest())
        return ranked[:1 + h[0] % 4]

    def _deterministic(self, account, local):
        h = hashlib.sha256(("account:" + account).encode("utf-8")).digest()
        if local.startswith("clean"):
            count = 0
        elif local.startswith("pwned"):
            count = 1 + h[0] % 6
        else:
            count = 0 if h[1] % 3 == 0 else 1 + h[0] % 6
        if count == 0:
            return [], 0
        ranked = sorted(self.catalog.eligible_names,
                        key=lambda n: hashlib.sha256(("%s\0%s" % (account, n)).encode("utf-8")).digest())
        return ranked[:count], h[2] % 4

    @staticmethod
    def _pastes(account, count, escape):
        pastes = []
        for i in range(count):
            h = hashlib.sha256(("paste:%s:%d" % (account, i)).encode("utf-8")).hexdigest()
            source = PASTE_SOURCES[int(h[0:2], 16) % len(PASTE_SOURCES)]
            paste_id = ("https://paste.example/raw/%s.txt" % h[2:12]) if source == "AdHocUrl" else h[2:10]
            day = datetime.date(2012, 1, 1) + datetime.timedelta(days=int(h[12:16], 16) % 4000)
            has_date = int(h[16], 16) % 5 != 0
            has_title = int(h[17], 16) % 3 != 0
            title = ("dump %s" % h[18:22]) if has_title else None
            if escape:
                title = "paste\x1b]0;owned\x07 \x1b[2Jtitle\x9b31m"
            pastes.append({
                "Source": source,
                "Id": paste_id,
                "Title": title,
                "Date": ("%sT%02d:%02d:%02dZ" % (day.isoformat(), int(h[22:24], 16) % 24,
                                                   int(h[24:26], 16) % 60, int(h[26:28], 16) % 60))
                        if has_date else None,
                "EmailCount": 10 + int(h[28:34], 16) % 200000,
            })
        pastes.sort(key=lambda p: p["Date"] or "", reverse=True)
        return pastes


def validate_website_domains(value):
    """A list of website domains (stealer logs): plausible DNS names, lower-cased, deduplicated."""
    if not isinstance(value, list) or len(value) > 1000:
        raise ValueError("must be a list of at most 1000 domains")
    domains = []
    for item in value:
        domain = normalise_domain(item) if isinstance(item, str) else None
        if domain is None:
            raise ValueError("%r is not a domain like example.com" % (item,))
        domains.append(domain)
    return sorted(set(domains))


def normalise_account(raw):
    """Accounts are trimmed and case-insensitive."""
    return raw.strip().lower()


def account_sha1(account):
    """The upper-case hex SHA-1 of an account as k-anonymity searches hash it: trimmed, lower-cased."""
    return hashlib.sha1(normalise_account(account).encode("utf-8")).hexdigest().upper()


def split_account(account):
    """(local part, domain) of an e-mail address; (account, "") for usernames and phone numbers."""
    if "@" in account:
        local, _, domain = account.rpartition("@")
        return local, domain
    return account, ""


def load_fixtures(path):
    """Reads a fixtures file: {"accounts": {account: {"breaches": [...], "pastes": N}}, "passwords": {...}}."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise DataError("cannot read the fixtures %s: %s" % (path, e)) from e
    if not isinstance(data, dict) or not isinstance(data.get("accounts", {}), dict):
        raise DataError("the fixtures %s must hold an object with an \"accounts\" object" % path)
    passwords = data.get("passwords", {})
    if not isinstance(passwords, dict):
        raise DataError("\"passwords\" in the fixtures %s must be an object" % path)
    return data.get("accounts", {}), passwords


# --------------------------------------------------------------------------------------------------
# Keys and rate limiting
# --------------------------------------------------------------------------------------------------

_KEY_FORMAT = re.compile(r"[0-9a-fA-F]{32}")


# Keys that answer every keyed request with something other than a result: "blocked" (Cloudflare's
# 403 page with a cf-ray), "revoked" (a 401 whose text runs to several sentences, as HIBP's does
# for a cancelled subscription) and "revoked-json" (the same 401 in the older JSON form,
# {"statusCode": 401, "message": ...}).
KEY_STATES = ("blocked", "revoked", "revoked-json")
REVOKED_TEXT = ("Access denied due to revoked hibp-api-key. The subscription this key belongs to has been "
                "cancelled or has lapsed, so requests made with it are no longer authorised. Renew the "
                "subscription or create a new key at https://haveibeenpwned.com/API/Key and use that one "
                "instead; keys of cancelled subscriptions are never reactivated.")


def parse_key_spec(spec):
    """`KEY`, `KEY:RPM` or `KEY:STATE` (one of KEY_STATES) → (lower-case key, None | rpm | state)."""
    key, _, limit = spec.partition(":")
    if not _KEY_FORMAT.fullmatch(key):
        raise ValueError("a key is 32 hexadecimal characters: %r" % key)
    if limit == "":
        return key.lower(), None
    if limit in KEY_STATES:
        return key.lower(), limit
    if not limit.isdigit():
        raise ValueError("a key's limit is a number of requests per minute or one of %s: %r"
                         % (", ".join(KEY_STATES), limit))
    return key.lower(), int(limit)


class TokenBucket:
    """Capacity `burst`, refilled at rpm/60 tokens per second; starts full."""

    def __init__(self, rpm, burst, now):
        self.rate = rpm / 60.0
        self.capacity = float(burst)
        self.tokens = float(burst)
        self.updated = now

    def take(self, now):
        """0 when a token was taken; otherwise the whole seconds (at least 1) until one is available."""
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0
        return max(1, math.ceil((1.0 - self.tokens) / self.rate))


class Config:
    """Settings that /__control/config can change at run time."""

    FIELDS = ("rpm", "latency_ms", "burst", "timeout_s")

    def __init__(self, rpm, latency_ms, burst, timeout_s, keys, stealer_logs=True, domains=(TEST_DOMAIN,),
                 entitlements=None, k_anonymity=False, range_endpoint=True, k_anonymity_field=True):
        self.rpm = rpm
        self.latency_ms = latency_ms
        self.burst = burst
        self.timeout_s = timeout_s
        self.keys = dict(keys)
        # What every key's subscription includes, unless `entitlements` says otherwise for that key:
        # stealer-log access, and the verified domains (domain search, stealer logs by e-mail).
        self.stealer_logs = stealer_logs
        self.domains = list(domains)
        self.entitlements = {k: dict(v) for k, v in (entitlements or {}).items()}
        # k-anonymity searches (breachedaccount/range): HIBP sells them with its larger plans only
        # (Pro and High RPM, per troyhunt.com's announcement), so a key lacks them unless told.
        self.k_anonymity = k_anonymity
        # A server without breachedaccount/range (an HIBP-compatible server that lacks it): the path is
        # unknown, answered as every unknown path is (404, no body).
        self.range_endpoint = range_endpoint
        # Whether subscription/status says what the plan includes of k-anonymity (IncludesKAnon); when
        # false the field is absent, as in answers that predate it ("unknown", not "no").
        self.k_anonymity_field = k_anonymity_field

    def copy(self):
        return Config(self.rpm, self.latency_ms, self.burst, self.timeout_s, self.keys, self.stealer_logs,
                      self.domains, self.entitlements, self.k_anonymity, self.range_endpoint,
                      self.k_anonymity_field)

    def as_dict(self):
        return {"rpm": self.rpm, "latency_ms": self.latency_ms, "burst": self.burst,
                "timeout_s": self.timeout_s,
                "keys": {k: (v if isinstance(v, str) else (self.rpm if v is None else v))
                         for k, v in sorted(self.keys.items())},
                "stealer_logs": self.stealer_logs, "domains": list(self.domains),
                "k_anonymity": self.k_anonymity, "range_endpoint": self.range_endpoint,
                "k_anonymity_field": self.k_anonymity_field,
                "entitlements": {k: dict(v) for k, v in sorted(self.entitlements.items())}}

    def entitled(self, key):
        """(includes stealer logs, verified domains) for a lower-case key. The public test key's
        default domain is the integration-test domain, whatever `domains` says."""
        override = self.entitlements.get(key, {})
        default_domains = [TEST_DOMAIN] if key == TEST_KEY else self.domains
        return override.get("stealer_logs", self.stealer_logs), list(override.get("domains", default_domains))

    def includes_k_anonymity(self, key):
        """Whether a lower-case key's subscription includes breachedaccount/range."""
        return self.entitlements.get(key, {}).get("k_anonymity", self.k_anonymity)

    def states_k_anonymity(self, key):
        """Whether subscription/status names IncludesKAnon for a lower-case key."""
        return self.entitlements.get(key, {}).get("k_anonymity_field", self.k_anonymity_field)

    @staticmethod
    def parse_domains(value, what):
        if not isinstance(value, list) or len(value) > 1000:
            raise ValueError("%s must be a list of at most 1000 domains" % what)
        domains = []
        for item in value:
            domain = normalise_domain(item) if isinstance(item, str) else None
            if domain is None:
                raise ValueError("%s: %r is not a domain like example.com" % (what, item))
            if domain not in domains:
                domains.append(domain)
        return domains

    def update(self, changes):
        """Applies a JSON object of changes; raises ValueError naming the first bad one."""
        if not isinstance(changes, dict):
            raise ValueError("the body must be a JSON object")
        flags = ("stealer_logs", "k_anonymity", "range_endpoint", "k_anonymity_field")
        unknown = sorted(set(changes) - set(self.FIELDS) - {"keys", "domains", "entitlements"} - set(flags))
        if unknown:
            raise ValueError("unknown setting %r (known: %s, keys, domains, entitlements, %s)"
                             % (unknown[0], ", ".join(self.FIELDS), ", ".join(flags)))
        checks = {"rpm": (0, 1_000_000), "latency_ms": (0, 120_000), "burst": (1, 100_000),
                  "timeout_s": (0, 600)}
        for field, (low, high) in checks.items():
            if field in changes:
                value = changes[field]
                if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
                    raise ValueError("%s must be a number from %d to %d" % (field, low, high))
                if field != "timeout_s" and value != int(value):
                    raise ValueError("%s must be a whole number" % field)
        keys = changes.get("keys", {})
        if not isinstance(keys, dict):
            raise ValueError("keys must be an object of key: rpm or \"blocked\"")
        parsed = {}
        for key, limit in keys.items():
            spec = key if limit is None else "%s:%s" % (key, limit)
            parsed.update([parse_key_spec(spec)])
        if "stealer_logs" in changes and not isinstance(changes["stealer_logs"], bool):
            raise ValueError("stealer_logs must be true or false")
        for flag in ("k_anonymity", "range_endpoint", "k_anonymity_field"):
            if flag in changes and not isinstance(changes[flag], bool):
                raise ValueError("%s must be true or false" % flag)
        domains = self.parse_domains(changes["domains"], "domains") if "domains" in changes else None
        overrides = changes.get("entitlements", {})
        if not isinstance(overrides, dict):
            raise ValueError("entitlements must be an object of key: {\"stealer_logs\", \"domains\"} or null")
        parsed_overrides = {}
        for key, override in overrides.items():
            if not isinstance(key, str) or not _KEY_FORMAT.fullmatch(key):
                raise ValueError("entitlements: a key is 32 hexadecimal characters: %r" % (key,))
            if override is not None:
                if not isinstance(override, dict) or set(override) - {"stealer_logs", "domains", "k_anonymity",
                                                                      "k_anonymity_field"}:
                    raise ValueError("entitlements: each key takes {\"stealer_logs\": bool, \"domains\": [...], "
                                     "\"k_anonymity\": bool, \"k_anonymity_field\": bool} or null")
                for flag in ("stealer_logs", "k_anonymity", "k_anonymity_field"):
                    if flag in override and not isinstance(override[flag], bool):
                        raise ValueError("entitlements: %s must be true or false" % flag)
                override = dict(override)
                if "domains" in override:
                    override["domains"] = self.parse_domains(override["domains"], "entitlements domains")
            parsed_overrides[key.lower()] = override
        for field in self.FIELDS:
            if field in changes:
                setattr(self, field, changes[field] if field == "timeout_s" else int(changes[field]))
        self.keys.update(parsed)
        if "stealer_logs" in changes:
            self.stealer_logs = changes["stealer_logs"]
        if "k_anonymity" in changes:
            self.k_anonymity = changes["k_anonymity"]
        if "range_endpoint" in changes:
            self.range_endpoint = changes["range_endpoint"]
        if "k_anonymity_field" in changes:
            self.k_anonymity_field = changes["k_anonymity_field"]
        if domains is not None:
            self.domains = domains
        for key, override in parsed_overrides.items():
            if override is None:
                self.entitlements.pop(key, None)
            else:
                self.entitlements[key] = override


# --------------------------------------------------------------------------------------------------
# The application: turns a request into a reply
# --------------------------------------------------------------------------------------------------

class Reply:
    """A response decided at arrival; `delay_s` is waited before it is sent. `drop` closes silently."""

    def __init__(self, status, body=b"", content_type=None, headers=None, delay_s=0.0, drop=False):
        self.status = status
        self.body = body
        self.headers = list(headers or [])
        if content_type:
            self.headers.insert(0, ("Content-Type", content_type))
        self.delay_s = delay_s
        self.drop = drop


def json_reply(status, value_or_bytes, **kwargs):
    body = value_or_bytes if isinstance(value_or_bytes, bytes) else to_json(value_or_bytes).encode("ascii")
    return Reply(status, body, "application/json; charset=utf-8", **kwargs)


def text_reply(status, text, **kwargs):
    return Reply(status, text.encode("utf-8"), "text/plain; charset=utf-8", **kwargs)


def cf_ray():
    return os.urandom(8).hex() + "-AMS"


def blocked_reply():
    ray = cf_ray()
    return Reply(403, BLOCKED_HTML.format(ray=ray).encode(), "text/html; charset=UTF-8", [("cf-ray", ray)])


def unavailable_reply():
    ray = cf_ray()
    return Reply(503, UNAVAILABLE_HTML.format(ray=ray).encode(), "text/html; charset=UTF-8", [("cf-ray", ray)])


def too_many_reply(seconds):
    message = "Rate limit is exceeded. Try again in %d seconds." % seconds
    return json_reply(429, {"statusCode": 429, "message": message}, headers=[("retry-after", str(seconds))])


def bad_request_reply():
    return text_reply(400, "Bad request: the account does not comply with an acceptable format.")


def not_found_reply():
    return Reply(404)


NO_STEALER_LOGS_TEXT = "Forbidden: the subscription of this hibp-api-key does not include stealer logs."
# HIBP's documentation does not say which status a plan without k-anonymity searches gets; it
# answers 401 or 403 for stealer logs a plan lacks. The fake answers 403 with a sentence, like those.
NO_K_ANONYMITY_TEXT = "Forbidden: the subscription of this hibp-api-key does not include k-anonymity searches."
# Entries that share no address's hash: every real prefix holds hundreds of suffixes, so a client
# must match its own suffix, never take the first entry.
K_ANONYMITY_DECOYS = 2
UNVERIFIED_DOMAIN_TEXT = "Forbidden: the domain %s is not a verified domain of this hibp-api-key's subscription."

_MALFORMED_JSON = b'[{"Name":"Adobe"},{"Name":"Bright'


class FakeHIBP:
    """All state and behaviour of the fake service, independent of the HTTP plumbing."""

    def __init__(self, catalog, passwords, book, config, quiet=False):
        self.catalog = catalog              # replaced (never changed in place) by /__control/breaches
        self.initial_catalog = catalog
        self.passwords = passwords
        self.book = book
        self.added = {}                     # account -> what /__control/accounts added to it
        self.unlisted = {}                  # account -> breach Names /__control/unlist hides ("*": all)
        self.initial_config = config.copy()
        self.config = config
        self.quiet = quiet
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.buckets = {}
        self.faults = collections.deque()
        self.endpoint_faults = {}           # endpoint -> deque of faults for its requests only
        self.log = collections.deque(maxlen=LOG_CAPACITY)
        self.stats = collections.Counter()
        self._oversized = None

    # ---- the API ---------------------------------------------------------------------------------

    def api(self, method, raw_path, raw_query, headers, now):
        """Decides the reply to an API request at its arrival time `now` (monotonic seconds)."""
        is_api = raw_path.startswith("/api/") or raw_path.startswith("/range/")
        with self.lock:
            fault = self.faults.popleft() if self.faults and is_api else None
            if fault is None and is_api and self.endpoint_faults:
                fault = self.take_endpoint_fault(endpoint_of(raw_path))
            latency = self.config.latency_ms / 1000.0
            timeout_s = self.config.timeout_s
        if fault:
            self.stats_add("injected_faults")
        if fault and fault != "timeout":
            reply = self.fault_reply(fault)
        else:
            reply = self.route(method, raw_path, raw_query, headers, now)
            if fault == "timeout":
                reply.delay_s += timeout_s
        reply.delay_s += latency
        return reply

    def fault_reply(self, kind):
        if kind == "503":
            return unavailable_reply()
        if kind == "400":
            return bad_request_reply()
        if kind == "500":
            return text_reply(500, "Internal Server Error")
        if kind == "429":
            return too_many_reply(1)
        if kind.startswith("429:"):
            return too_many_reply(int(kind[4:]))
        if kind == "malformed":
            return json_reply(200, _MALFORMED_JSON)
        if kind == "oversized":
            return json_reply(200, self.oversized_body())
        return Reply(0, drop=True)

    def oversized_body(self):
        if self._oversized is None:
            item = b'{"Name":"Adobe"}'
            self._oversized = b"[" + b",".join([item] * (OVERSIZED_BYTES // (len(item) + 1))) + b"]"
        return self._oversized

    def route(self, method, raw_path, raw_query, headers, now):
        if not headers.get("user-agent", "").strip():
            return blocked_reply()
        parts = raw_path.split("/")
        if raw_path.startswith("/range/") and len(parts) == 3:
            return self.only_get(method) or self.password_range(parts[2], raw_query, headers)
        if len(parts) < 4 or parts[1] != "api" or parts[2].lower() != "v3":
            return not_found_reply()
        service = [p.lower() for p in parts[3:]]
        if service and service[-1] == "" and len(service) > 1:
            service.pop()
        query = {k.lower(): v for k, v in urllib.parse.parse_qsl(raw_query, keep_blank_values=True)}
        catalog = self.catalog   # one consistent catalog for the whole request
        if len(service) == 3 and service[:2] == ["breachedaccount", "range"]:
            with self.lock:
                offered = self.config.range_endpoint
            if not offered:
                return not_found_reply()   # as any path this server does not know
            return self.only_get(method) or self.breached_account_range(parts[5], headers, now, catalog)
        if len(service) == 2 and service[0] in ("breachedaccount", "pasteaccount", "stealerlogsbyemail"):
            account = normalise_account(urllib.parse.unquote(parts[4]))
            return self.only_get(method) or self.account_endpoint(service[0], account, query, headers, now, catalog)
        if len(service) == 2 and service[0] == "breacheddomain":
            domain = urllib.parse.unquote(parts[4])
            return self.only_get(method) or self.breached_domain(domain, headers, now, catalog)
        if service == ["subscribeddomains"]:
            return (self.only_get(method) or self.authorise(headers, now, domain=None)
                    or self.subscribed_domains(headers, catalog))
        if service == ["subscription", "status"]:
            return (self.only_get(method) or self.authorise(headers, now, domain=None)
                    or self.subscription_status(headers))
        if service == ["breaches"]:
            return self.only_get(method) or self.breaches(query, catalog)
        if len(service) == 2 and service[0] == "breach":
            entry = catalog.get(urllib.parse.unquote(parts[4]).strip())
            return self.only_get(method) or (json_reply(200, catalog.json[entry["Name"]].encode("ascii"))
                                             if entry else not_found_reply())
        if service == ["latestbreach"]:
            return self.only_get(method) or json_reply(200, catalog.json[catalog.latest["Name"]].encode("ascii"))
        if service == ["dataclasses"]:
            return self.only_get(method) or json_reply(200, catalog.data_classes)
        return not_found_reply()

    @staticmethod
    def only_get(method):
        if method in ("GET", "HEAD"):
            return None
        return text_reply(405, "The requested resource does not support http method '%s'." % method,
                          headers=[("Allow", "GET")])

    def authorise(self, headers, now, domain):
        """None when the key may make this request now; otherwise the 401/403/429 reply. `domain` is
        the domain of the account or domain searched (None for requests about the subscription)."""
        key = headers.get("hibp-api-key")
        if key is None or not key.strip():
            return text_reply(401, "Access denied due to missing hibp-api-key.")
        key = key.strip()
        if not _KEY_FORMAT.fullmatch(key):
            return text_reply(401, "Access denied due to improperly formed hibp-api-key.")
        key = key.lower()
        with self.lock:
            if key not in self.config.keys and key != TEST_KEY:
                return text_reply(401, "Access denied due to invalid hibp-api-key.")
            limit = self.config.keys.get(key)
            if limit == "blocked":
                return blocked_reply()
            if limit == "revoked":
                return text_reply(401, REVOKED_TEXT)
            if limit == "revoked-json":
                return json_reply(401, {"statusCode": 401, "message": REVOKED_TEXT})
            if key == TEST_KEY and domain != TEST_DOMAIN:
                return text_reply(401, "Access denied: the test hibp-api-key only works for accounts on "
                                       + TEST_DOMAIN + ".")
            rpm = self.config.rpm if limit is None else limit
            if rpm == 0:
                return None
            bucket = self.buckets.get(key)
            if bucket is None:
                bucket = self.buckets[key] = TokenBucket(rpm, self.config.burst, now)
            wait = bucket.take(now)
        if wait:
            self.stats_add("rate_limited")
            return too_many_reply(wait)
        return None

    def account_endpoint(self, service, account, query, headers, now, catalog):
        denied = self.authorise(headers, now, split_account(account)[1])
        if denied:
            return denied
        if service == "stealerlogsbyemail":
            includes_stealer_logs, verified = self.entitled(headers)
            if not includes_stealer_logs:
                return text_reply(403, NO_STEALER_LOGS_TEXT)
        if not account or len(account) > MAX_ACCOUNT_LENGTH or _CONTROL_CHARS.search(account):
            return bad_request_reply()
        if service == "stealerlogsbyemail":
            local, domain = split_account(account)
            if not local or normalise_domain(domain) is None:
                return bad_request_reply()
            if domain not in verified:
                return text_reply(403, UNVERIFIED_DOMAIN_TEXT % domain)
        record = self.record_for(account)
        hang = 0.0
        if record.fault == "fault-503":
            return unavailable_reply()
        if record.fault == "fault-400":
            return bad_request_reply()
        if record.fault == "fault-malformed":
            return json_reply(200, _MALFORMED_JSON)
        if record.fault == "fault-oversized":
            return json_reply(200, self.oversized_body())
        if record.fault == "fault-timeout":
            with self.lock:
                hang = self.config.timeout_s
        if service == "breachedaccount":
            reply = self.breached_account(record, query, catalog)
        elif service == "pasteaccount":
            reply = json_reply(200, record.pastes) if record.pastes else not_found_reply()
        else:
            reply = json_reply(200, record.stealer_logs) if record.stealer_logs else not_found_reply()
        reply.delay_s += hang
        return reply

    def breached_account_range(self, prefix, headers, now, catalog):
        """breachedaccount/range/{6 hex}: every account the server can enumerate (test table, fixtures,
        accounts /__control/accounts touched) whose upper-case SHA-1 of the lower-cased, trimmed address
        starts with the prefix, with the breach Names breachedaccount would list for it (same filter,
        no domain or unverified filter), plus decoys. The deterministic rule's other addresses are
        unknown here: HIBP knows its accounts, the fake only those it can list."""
        denied = self.authorise(headers, now, domain=None)
        if denied:
            return denied
        with self.lock:
            allowed = self.config.includes_k_anonymity(headers["hibp-api-key"].strip().lower())
        if not allowed:
            return text_reply(403, NO_K_ANONYMITY_TEXT)
        if not re.fullmatch(r"[0-9A-Fa-f]{6}", prefix):
            return text_reply(400, "Bad request: the hash prefix must be 6 hexadecimal characters.")
        prefix = prefix.upper()
        with self.lock:
            added = list(self.added)
        candidates = set(added) | set("%s@%s" % (local, TEST_DOMAIN) for local in TEST_ACCOUNTS) \
            | set(self.book.fixtures)
        entries = []
        for account in sorted(candidates):
            digest = account_sha1(account)
            if not digest.startswith(prefix):
                continue
            record = self.record_for(account)
            names = self.visible_breaches(record, catalog)
            if names:
                entries.append({"hashSuffix": digest[6:], "websites": names})
        for i in range(K_ANONYMITY_DECOYS):
            suffix = hashlib.sha1(("decoy:%s:%d" % (prefix, i)).encode("ascii")).hexdigest().upper()[:34]
            entries.append({"hashSuffix": suffix, "websites": catalog.eligible_names[:1 + i]})
        entries.sort(key=lambda e: e["hashSuffix"])
        return json_reply(200, entries)

    def entitled(self, headers):
        """(includes stealer logs, verified domains) of the request's (already authorised) key."""
        with self.lock:
            return self.config.entitled(headers["hibp-api-key"].strip().lower())

    def record_for(self, account):
        """What the server holds about an account: its rule's record plus what the control API added."""
        record = self.book.lookup(account)
        with self.lock:
            added = self.added.get(account)
            if added is not None:
                added = {k: list(v) if isinstance(v, list) else v for k, v in added.items()}
        if added:
            record.breaches += [n for n in added["breaches"] if n not in record.breaches]
            record.pastes = sorted(record.pastes + added["pastes"], key=lambda p: p["Date"] or "", reverse=True)
            record.stealer_logs = sorted(set(record.stealer_logs) | set(added["stealer_logs"]))
            record.owner_verified = record.owner_verified or added["owner_verified"]
        with self.lock:
            hidden = set(self.unlisted.get(account, ()))
        if hidden:
            # An opt-out, a removed breach, a wrong answer: HIBP stops listing the account there.
            record.breaches = [] if "*" in hidden else [n for n in record.breaches if n not in hidden]
        return record

    def domain_search(self, domain, catalog, initial=False):
        """{alias: [breach Name, ...]} for the accounts on `domain` the server knows: the domain owner's
        view, so sensitive breaches are in (retired ones are not). `initial` ignores run-time changes."""
        with self.lock:
            added = [] if initial else [a for a in self.added if split_account(a)[1] == domain]
        result = {}
        for account in sorted(set(self.book.known_accounts(domain) + added)):
            record = self.book.lookup(account) if initial else self.record_for(account)
            entries = [catalog.get(n) for n in record.breaches]
            names = sorted((e["Name"] for e in entries if e is not None and not e.get("IsRetired", False)),
                           key=str.lower)
            if names:
                result[split_account(account)[0]] = names
        return result

    def breached_domain(self, raw_domain, headers, now, catalog):
        domain = normalise_domain(raw_domain)
        denied = self.authorise(headers, now, domain)
        if denied:
            return denied
        if domain is None:
            return text_reply(400, "Bad request: the domain does not comply with an acceptable format.")
        if domain not in self.entitled(headers)[1]:
            return text_reply(403, UNVERIFIED_DOMAIN_TEXT % domain)
        result = self.domain_search(domain, catalog)
        return json_reply(200, result) if result else not_found_reply()

    def subscribed_domains(self, headers, catalog):
        renewal = utc_stamp((datetime.datetime.now(datetime.timezone.utc)
                             + datetime.timedelta(days=365)).replace(microsecond=0))
        answer = []
        for domain in self.entitled(headers)[1]:
            now_found = self.domain_search(domain, catalog)
            at_renewal = self.domain_search(domain, self.initial_catalog, initial=True)
            answer.append({
                "DomainName": domain,
                "PwnCount": len(now_found),
                "PwnCountExcludingSpamLists": self.count_without_spam(now_found, catalog),
                "PwnCountExcludingSpamListsAtLastSubscriptionRenewal": self.count_without_spam(
                    at_renewal, self.initial_catalog),
                "NextSubscriptionRenewal": renewal,
            })
        return json_reply(200, answer)

    @staticmethod
    def count_without_spam(found, catalog):
        """Breached aliases that are in at least one breach that is not a spam list."""
        return sum(1 for names in found.values()
                   if any(not catalog.get(n).get("IsSpamList", False) for n in names))

    @staticmethod
    def visible_entries(record, catalog):
        """The catalog entries breachedaccount shows for `record`: no sensitive (unless to the verified
        owner) or retired breach."""
        entries = [catalog.get(n) for n in record.breaches]
        return [e for e in entries if e is not None and (catalog.is_listable(e)
                or (record.owner_verified and e.get("IsSensitive", False) and not e.get("IsRetired", False)))]

    def visible_breaches(self, record, catalog):
        """The Names breachedaccount would list for `record`, in its order."""
        return [e["Name"] for e in sorted(self.visible_entries(record, catalog), key=lambda e: e["Name"].lower())]

    def breached_account(self, record, query, catalog):
        entries = self.visible_entries(record, catalog)
        if not parse_bool(query.get("includeunverified"), True):
            entries = [e for e in entries if e.get("IsVerified", False)]
        domain = query.get("domain", "").strip().lower()
        if domain:
            entries = [e for e in entries if e["Domain"].lower() == domain]
        if not entries:
            return not_found_reply()
        entries.sort(key=lambda e: e["Name"].lower())
        if parse_bool(query.get("truncateresponse"), True):
            return json_reply(200, [{"Name": e["Name"]} for e in entries])
        return json_reply(200, ("[" + ",".join(catalog.json[e["Name"]] for e in entries) + "]").encode("ascii"))

    def breaches(self, query, catalog):
        domain = query.get("domain", "").strip().lower()
        spam = parse_bool(query.get("isspamlist"), None)
        if not domain and spam is None:
            return json_reply(200, catalog.all_json)
        entries = [e for e in catalog.breaches
                   if (not domain or e["Domain"].lower() == domain)
                   and (spam is None or e.get("IsSpamList", False) == spam)]
        return json_reply(200, ("[" + ",".join(catalog.json[e["Name"]] for e in entries) + "]").encode("ascii"))

    def subscription_status(self, headers):
        key = headers["hibp-api-key"].strip().lower()
        with self.lock:
            limit = self.config.keys.get(key)
            rpm = self.config.rpm if limit is None else limit
            k_anon = self.config.includes_k_anonymity(key) and self.config.range_endpoint
            states_k_anon = self.config.states_k_anonymity(key)
        tiers = [(10, "Pwned 1", 25), (50, "Pwned 2", 100), (100, "Pwned 3", 500), (500, "Pwned 4", 2500),
                 (1000, "Pwned 5", 10000)]
        name, max_accounts = "Pwned Custom", 100000
        for tier_rpm, tier_name, tier_accounts in tiers:
            if rpm == tier_rpm:
                name, max_accounts = tier_name, tier_accounts
        until = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=365)).replace(microsecond=0)
        status = {
            "SubscriptionName": name,
            "Description": "A fake-hibp subscription allowing %d requests per minute." % rpm,
            "SubscribedUntil": until.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "Rpm": rpm,
            "DomainSearchMaxBreachedAccounts": max_accounts,
            "IncludesStealerLogs": self.entitled(headers)[0],
        }
        if states_k_anon:
            status["IncludesKAnon"] = k_anon
        return json_reply(200, status)

    def password_range(self, prefix, raw_query, headers):
        if not re.fullmatch(r"[0-9A-Fa-f]{5}", prefix):
            return text_reply(400, "The hash prefix was not in a valid format")
        query = {k.lower(): v for k, v in urllib.parse.parse_qsl(raw_query, keep_blank_values=True)}
        mode = "ntlm" if query.get("mode", "").lower() == "ntlm" else "sha1"
        padded = headers.get("add-padding", "").strip().lower() == "true"
        body = "\r\n".join(self.passwords.lines(prefix, mode, padded)).encode("ascii")
        return Reply(200, body, "text/plain")

    # ---- bookkeeping -----------------------------------------------------------------------------

    def stats_add(self, name):
        with self.lock:
            self.stats[name] += 1

    def record(self, method, raw_path, raw_query, headers, status, arrived):
        with self.lock:
            self.log.append({"method": method, "path": raw_path, "query": raw_query, "headers": headers,
                             "status": status, "monotonic": arrived})
            self.stats["total"] += 1
            self.stats["status:%d" % status] += 1
            self.stats["endpoint:" + endpoint_of(raw_path)] += 1

    # ---- /__control/ -----------------------------------------------------------------------------

    def control(self, method, raw_path, body):
        """Handles the test-control API; never rate-limited, delayed, faulted or logged."""
        name = raw_path[len("/__control/"):].rstrip("/")
        if name not in ("config", "faults", "log", "stats", "reset", "breaches", "accounts", "unlist"):
            return not_found_reply()
        allowed = {"config": ("GET", "POST"), "faults": ("GET", "POST"), "log": ("GET",),
                   "stats": ("GET",), "reset": ("POST",), "breaches": ("POST",), "accounts": ("POST",),
                   "unlist": ("POST",)}[name]
        if method not in allowed:
            return text_reply(405, "use %s\n" % " or ".join(allowed), headers=[("Allow", ", ".join(allowed))])
        payload = None
        if method == "POST":
            try:
                payload = json.loads(body.decode("utf-8")) if body.strip() else {}
            except (UnicodeDecodeError, ValueError) as e:
                return json_reply(400, {"error": "the body is not JSON: %s" % e})
        with self.lock:
            try:
                if name == "config":
                    if payload is not None:
                        self.config.update(payload)
                        self.buckets.clear()
                    return json_reply(200, self.config.as_dict())
                if name == "faults":
                    if payload is not None:
                        self.queue_faults(payload)
                    return json_reply(200, self.pending_faults())
                if name == "log":
                    return json_reply(200, list(self.log))
                if name == "stats":
                    return json_reply(200, self.stats_dict())
                if name == "breaches":
                    return self.control_breach(payload)
                if name == "accounts":
                    return self.control_account(payload)
                if name == "unlist":
                    return self.control_unlist(payload)
                if not isinstance(payload, dict) or set(payload) - {"config", "data"}:
                    raise ValueError("reset takes an empty body or {\"config\": true, \"data\": true}")
                self.log.clear()
                self.stats.clear()
                self.faults.clear()
                self.endpoint_faults.clear()
                self.buckets.clear()
                if payload.get("config") is True:
                    self.config = self.initial_config.copy()
                if payload.get("data") is True:
                    self.catalog = self.initial_catalog
                    self.added.clear()
                    self.unlisted.clear()
                return json_reply(200, {"reset": True})
            except ValueError as e:
                return json_reply(400, {"error": str(e)})

    def control_breach(self, payload):
        """Adds a breach to the catalog, or updates the one of that Name (called with the lock held)."""
        if isinstance(payload, dict) and self.catalog.get(str(payload.get("Name", ""))) is None \
                and len(self.catalog.breaches) - len(self.initial_catalog.breaches) >= MAX_RUNTIME_BREACHES:
            raise ValueError("at most %d breaches may be added at run time" % MAX_RUNTIME_BREACHES)
        catalog, entry, created = self.catalog.upserted(payload, datetime.datetime.now(datetime.timezone.utc))
        self.catalog = catalog
        return json_reply(200, {"created": created, "breach": entry})

    def control_account(self, payload):
        """Adds breaches, pastes and stealer-log domains to an account (called with the lock held)."""
        if not isinstance(payload, dict) or not isinstance(payload.get("account"), str):
            raise ValueError("the body must be {\"account\": \"x@example.com\", \"breaches\": [...], "
                             "\"pastes\": [...], \"stealerLogs\": [...]}")
        unknown = sorted(set(payload) - {"account", "breaches", "pastes", "stealerLogs", "ownerVerified"})
        if unknown:
            raise ValueError("unknown field %r (known: account, breaches, pastes, stealerLogs, ownerVerified)"
                             % unknown[0])
        account = normalise_account(payload["account"])
        if not account or len(account) > MAX_ACCOUNT_LENGTH or _CONTROL_CHARS.search(account):
            raise ValueError("the account must be 1-%d characters without control characters" % MAX_ACCOUNT_LENGTH)
        names = payload.get("breaches", [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ValueError("breaches must be a list of breach Names")
        canonical = []
        for name in names:
            entry = self.catalog.get(name)
            if entry is None:
                raise ValueError("unknown breach %r: add it with POST /__control/breaches first" % name)
            canonical.append(entry["Name"])
        pastes = payload.get("pastes", [])
        if not isinstance(pastes, list):
            raise ValueError("pastes must be a list of Paste objects")
        stealer_logs = validate_website_domains(payload.get("stealerLogs", []))
        owner = payload.get("ownerVerified", False)
        if not isinstance(owner, bool):
            raise ValueError("ownerVerified must be true or false")
        if account not in self.added and len(self.added) >= MAX_RUNTIME_ACCOUNTS:
            raise ValueError("at most %d accounts may be changed at run time" % MAX_RUNTIME_ACCOUNTS)
        added = self.added.get(account) or {"breaches": [], "pastes": [], "stealer_logs": [], "owner_verified": False}
        new_pastes = [validate_paste(p, account, len(added["pastes"]) + i) for i, p in enumerate(pastes)]
        if len(added["pastes"]) + len(new_pastes) > 1000:
            raise ValueError("at most 1000 pastes may be added to an account")
        added = {"breaches": added["breaches"] + [n for n in canonical if n not in added["breaches"]],
                 "pastes": added["pastes"] + new_pastes,
                 "stealer_logs": sorted(set(added["stealer_logs"]) | set(stealer_logs)),
                 "owner_verified": added["owner_verified"] or owner}
        self.added[account] = added
        return json_reply(200, {"account": account, "added": {
            "breaches": added["breaches"], "pastes": added["pastes"], "stealerLogs": added["stealer_logs"],
            "ownerVerified": added["owner_verified"]}})

    def control_unlist(self, payload):
        """Stops listing an account in some breaches, or in all (called with the lock held):
        {"account": "x@example.com", "breaches": ["Adobe"]} hides those (omitted: every breach), for
        breachedaccount, the range search and the domain search alike; {"account": ..., "relist": true}
        lists it again as before. Catalog entries are not touched."""
        if not isinstance(payload, dict) or not isinstance(payload.get("account"), str):
            raise ValueError("the body must be {\"account\": \"x@example.com\", \"breaches\": [...]} "
                             "or {\"account\": \"x@example.com\", \"relist\": true}")
        unknown = sorted(set(payload) - {"account", "breaches", "relist"})
        if unknown:
            raise ValueError("unknown field %r (known: account, breaches, relist)" % unknown[0])
        account = normalise_account(payload["account"])
        if not account or len(account) > MAX_ACCOUNT_LENGTH or _CONTROL_CHARS.search(account):
            raise ValueError("the account must be 1-%d characters without control characters" % MAX_ACCOUNT_LENGTH)
        relist = payload.get("relist", False)
        if not isinstance(relist, bool):
            raise ValueError("relist must be true or false")
        if relist:
            if "breaches" in payload:
                raise ValueError("relist takes no breaches: it lists the account again everywhere")
            self.unlisted.pop(account, None)
            return json_reply(200, {"account": account, "unlisted": []})
        names = payload.get("breaches")
        if names is None:
            hidden = {"*"}
        else:
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                raise ValueError("breaches must be a list of breach Names")
            hidden = set()
            for n in names:
                entry = self.catalog.get(n)
                hidden.add(entry["Name"] if entry is not None else n)
        if account not in self.unlisted and len(self.unlisted) >= MAX_RUNTIME_ACCOUNTS:
            raise ValueError("at most %d accounts may be changed at run time" % MAX_RUNTIME_ACCOUNTS)
        self.unlisted[account] = set(self.unlisted.get(account, set())) | hidden
        return json_reply(200, {"account": account, "unlisted": sorted(self.unlisted[account])})

    def queue_faults(self, payload):
        if not isinstance(payload, dict):
            raise ValueError("the body must be an object like {\"503\": 3}")
        for kind, count in payload.items():
            scoped = ENDPOINT_FAULT.fullmatch(kind)
            fault = scoped.group(2) if scoped else kind
            if fault not in FAULT_KINDS and not RETRY_AFTER_FAULT.fullmatch(fault):
                raise ValueError("unknown fault %r (known: %s, each optionally as ENDPOINT=FAULT)"
                                 % (kind, ", ".join(FAULT_KINDS)))
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise ValueError("the count of %r must be a whole number" % kind)
        pending = len(self.faults) + sum(len(q) for q in self.endpoint_faults.values())
        if pending + sum(payload.values()) > MAX_PENDING_FAULTS:
            raise ValueError("at most %d faults may be pending" % MAX_PENDING_FAULTS)
        for kind, count in payload.items():
            scoped = ENDPOINT_FAULT.fullmatch(kind)
            if scoped:
                if count:
                    self.endpoint_faults.setdefault(scoped.group(1), collections.deque()).extend([scoped.group(2)] * count)
            else:
                self.faults.extend([kind] * count)

    def take_endpoint_fault(self, endpoint):
        """The next fault queued for `endpoint` only, or None (called with the lock held)."""
        queue = self.endpoint_faults.get(endpoint)
        if not queue:
            return None
        fault = queue.popleft()
        if not queue:
            del self.endpoint_faults[endpoint]
        return fault

    def pending_faults(self):
        """`{"pending": [...]}`, plus `"byEndpoint": {endpoint: [...]}` when faults wait for one service."""
        answer = {"pending": list(self.faults)}
        if self.endpoint_faults:
            answer["byEndpoint"] = {e: list(q) for e, q in sorted(self.endpoint_faults.items())}
        return answer

    def stats_dict(self):
        by_status = {k.split(":", 1)[1]: v for k, v in sorted(self.stats.items()) if k.startswith("status:")}
        by_endpoint = {k.split(":", 1)[1]: v for k, v in sorted(self.stats.items()) if k.startswith("endpoint:")}
        return {"total": self.stats["total"], "by_status": by_status, "too_many_requests": by_status.get("429", 0),
                "rate_limited": self.stats["rate_limited"], "injected_faults": self.stats["injected_faults"],
                "by_endpoint": by_endpoint}


def endpoint_of(raw_path):
    """The service a request path names, for the statistics: "breachedaccount", "subscription/status",
    "range", … ("other" for paths that are not API paths)."""
    parts = raw_path.split("/")
    if raw_path.startswith("/range/"):
        return "range"
    if len(parts) >= 4 and parts[1] == "api" and parts[2].lower() == "v3" and parts[3]:
        service = parts[3].lower()
        if service == "subscription" and len(parts) >= 5:
            return "subscription/" + parts[4].lower()
        return service if re.fullmatch(r"[a-z]{1,40}", service) else "other"
    return "other"


def validate_paste(paste, account, index):
    """A Paste from the control API, with defaults for what it leaves out."""
    if not isinstance(paste, dict) or set(paste) - {"Source", "Id", "Title", "Date", "EmailCount"}:
        raise ValueError("a paste is an object with Source, Id, Title, Date, EmailCount (all optional)")
    h = hashlib.sha256(("added-paste:%s:%d" % (account, index)).encode("utf-8")).hexdigest()
    result = {"Source": paste.get("Source", "Pastebin"), "Id": paste.get("Id", h[:8]),
              "Title": paste.get("Title"), "Date": paste.get("Date", utc_stamp(datetime.datetime.now(datetime.timezone.utc))),
              "EmailCount": paste.get("EmailCount", 1)}
    if not isinstance(result["Source"], str) or not isinstance(result["Id"], str):
        raise ValueError("a paste's Source and Id are strings")
    if result["Title"] is not None and not isinstance(result["Title"], str):
        raise ValueError("a paste's Title is a string or null")
    if result["Date"] is not None and (not isinstance(result["Date"], str) or not _STAMP.fullmatch(result["Date"])):
        raise ValueError("a paste's Date is null or like 2015-10-26T23:35:45Z")
    count = result["EmailCount"]
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError("a paste's EmailCount is a whole number >= 0")
    return result


def parse_bool(value, default):
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered == "true":
        return True
    if lowered == "false":
        return False
    return default


# --------------------------------------------------------------------------------------------------
# HTTP plumbing
# --------------------------------------------------------------------------------------------------

# Linux's SO_TIMESTAMPNS / SCM_TIMESTAMPNS (Python's socket module does not name them).
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35 if sys.platform.startswith("linux") else None)
_TIMESPEC = struct.Struct("@qq")


def realtime_offset():
    """CLOCK_REALTIME minus CLOCK_MONOTONIC, now. Read as a monotonic-realtime-monotonic sandwich, the
    tightest of a few: a thread that loses the GIL or the CPU between two plain reads (5 ms is the GIL's
    switch interval) would move the arrival stamp later by as much, and on a loaded machine two
    requests sent 21 ms apart were stamped 17 ms apart and refused."""
    best = None
    for _ in range(8):
        before = time.monotonic()
        real = time.clock_gettime(time.CLOCK_REALTIME)
        after = time.monotonic()
        if best is None or after - before < best[0]:
            best = (after - before, real - (before + after) / 2)
        if after - before < 20e-6:
            break
    return best[1]


class StampingReader:
    """The request stream of one connection, read with recvmsg so that each request is stamped when
    its first bytes reached this host (the kernel's receive time), not when a Python thread got
    round to parsing it.

    HIBP counts a request against the key's limit when it reaches its edge; a stamp taken after this
    server's thread was woken, got the GIL and parsed the headers adds milliseconds of jitter on a
    loaded machine (two requests sent 20 ms apart could be stamped 17 ms apart) that the real service
    does not have. Without kernel stamps (not Linux), the stamp is the moment the bytes were read.
    Only what BaseHTTPRequestHandler uses: readline, read."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = bytearray()
        self.stamped = SO_TIMESTAMPNS is not None
        if self.stamped:
            try:
                sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
            except OSError:
                self.stamped = False
        self.arrival = None     # monotonic seconds of the first bytes of the request being read

    def _fill(self):
        """Reads what has arrived (blocking, under the socket's timeout); False at end of stream."""
        if self.stamped:
            data, ancillary, _, _ = self.sock.recvmsg(65536, socket.CMSG_SPACE(_TIMESPEC.size))
        else:
            data, ancillary = self.sock.recv(65536), []
        if not data:
            return False
        if self.arrival is None:
            self.arrival = time.monotonic()
            for level, kind, payload in ancillary:
                if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(payload) >= _TIMESPEC.size:
                    seconds, nanoseconds = _TIMESPEC.unpack_from(payload)
                    # CLOCK_REALTIME of arrival, moved onto CLOCK_MONOTONIC by the clocks' offset now.
                    self.arrival = min(self.arrival, seconds + nanoseconds / 1e9 - realtime_offset())
        self.buffer += data
        return True

    def take_arrival(self):
        """The arrival stamp of the request whose first line was just read (now when unknown)."""
        arrival = self.arrival if self.arrival is not None else time.monotonic()
        # A pipelined request already read arrived with this one; otherwise the next read stamps anew.
        self.arrival = arrival if self.buffer else None
        return arrival

    def readline(self, limit=-1):
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0 and (limit < 0 or end < limit):
                return self._take(end + 1)
            if limit >= 0 and len(self.buffer) >= limit:
                return self._take(limit)
            if not self._fill():
                return self._take(len(self.buffer))

    def read(self, size=-1):
        while size < 0 or len(self.buffer) < size:
            if not self._fill():
                break
        return self._take(len(self.buffer) if size < 0 else min(size, len(self.buffer)))

    def _take(self, count):
        data = bytes(self.buffer[:count])
        del self.buffer[:count]
        return data

    def close(self):
        pass


class Handler(http.server.BaseHTTPRequestHandler):
    """HTTP/1.1 with keep-alive; every reply carries a Content-Length."""

    protocol_version = "HTTP/1.1"
    timeout = IDLE_TIMEOUT_S
    # A reply's head and body are two writes: with Nagle's algorithm the body waited for the client's
    # delayed ACK, 40 ms on Linux, on every reply whose answer the client was waiting for. HIBP's edge
    # answers in one go; so does this server (TCP_NODELAY, set by the base class's setup).
    disable_nagle_algorithm = True

    def version_string(self):
        return "cloudflare"

    def setup(self):
        super().setup()
        self.rfile = StampingReader(self.connection)

    def do_GET(self):
        self.dispatch()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_HEAD = do_GET

    def dispatch(self):
        app = self.server.app
        body = self.read_body()
        arrived = self.rfile.take_arrival()   # when its first bytes reached this host (see StampingReader)
        if body is None:
            return
        raw_path, _, raw_query = self.path.partition("?")
        headers = {}
        for name, value in self.headers.items():
            name = name.lower()
            headers[name] = headers[name] + ", " + value if name in headers else value
        if raw_path.startswith("/__control/"):
            if self.client_address[0] not in ("127.0.0.1", "::1"):
                self.send_reply(text_reply(403, "the control API only answers loopback clients\n"))
            else:
                self.send_reply(app.control(self.command, raw_path, body))
            return
        reply = app.api(self.command, raw_path, raw_query, headers, arrived)
        app.record(self.command, raw_path, raw_query, headers, reply.status, arrived)
        if reply.delay_s > 0 and app.stopping.wait(reply.delay_s):
            self.close_connection = True
            return
        self.send_reply(reply)

    def read_body(self):
        """The request body (bytes), or None after answering a request whose body is refused."""
        if "transfer-encoding" in (k.lower() for k in self.headers.keys()):
            self.send_reply(text_reply(411, "chunked request bodies are not accepted; send Content-Length\n"),
                            close=True)
            return None
        length = self.headers.get("Content-Length", "0").strip() or "0"
        if not length.isdigit():
            self.send_reply(text_reply(400, "bad Content-Length\n"), close=True)
            return None
        if int(length) > MAX_REQUEST_BODY:
            self.send_reply(text_reply(413, "request body over %d bytes\n" % MAX_REQUEST_BODY), close=True)
            return None
        return self.rfile.read(int(length)) if int(length) else b""

    def send_reply(self, reply, close=False):
        if reply.drop:
            self.close_connection = True
            return
        try:
            self.send_response(reply.status)
            for name, value in reply.headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(reply.body)))
            if close:
                self.send_header("Connection", "close")
            self.end_headers()
            if self.command != "HEAD":
                view = memoryview(reply.body)
                for offset in range(0, len(view), 256 * 1024):
                    self.wfile.write(view[offset:offset + 256 * 1024])
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, TimeoutError, OSError):
            self.close_connection = True

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        if not self.server.app.quiet:
            sys.stderr.write("fake-hibp: %s\n" % (format % args))


class FakeHIBPServer(http.server.ThreadingHTTPServer):
    """A threading server on 127.0.0.1 (or ::1) that refuses connections beyond MAX_CONNECTIONS."""

    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True
    request_queue_size = 128   # listen backlog; socketserver's 5 drops SYNs when clients open connections in bursts

    def __init__(self, port, app, host="127.0.0.1"):
        self.app = app
        self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        if ":" in host:
            self.address_family = socket.AF_INET6   # an instance attribute, read by TCPServer.__init__
        super().__init__((host, port), Handler)
        # Kernel receive stamps on the listening socket too: accepted connections inherit the option,
        # and while it is on the kernel stamps every packet, so a connection's first request (which
        # may arrive before its handler thread sets the option) is stamped on arrival as well.
        if SO_TIMESTAMPNS is not None:
            try:
                self.socket.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
            except OSError:
                pass

    def process_request(self, request, client_address):
        if not self.slots.acquire(blocking=False):
            try:
                request.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except Exception:
            self.slots.release()
            raise

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()


# --------------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------------

LOOPBACK_HOSTS = ("127.0.0.1", "::1")


def url_authority(host, port):
    """host:port as written in a URL: an IPv6 address in brackets."""
    return "[%s]:%d" % (host, port) if ":" in host else "%s:%d" % (host, port)


def write_port_file(path, port):
    """Writes the port atomically: a temporary file in the same folder, then rename."""
    folder = os.path.dirname(os.path.abspath(path))
    temporary = os.path.join(folder, ".%s.%d.tmp" % (os.path.basename(path), os.getpid()))
    with open(temporary, "w", encoding="ascii") as f:
        f.write("%d\n" % port)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temporary, path)


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog="fake_hibp.py",
        description="A fake Have I Been Pwned API v3 (and Pwned Passwords range API) on 127.0.0.1 or ::1, "
                    "for pwnvault's tests. See README.md.")
    parser.add_argument("--port", type=int, default=0, help="port to listen on; 0 picks a free one (default)")
    parser.add_argument("--host", default="127.0.0.1", choices=LOOPBACK_HOSTS,
                        help="loopback address to listen on: 127.0.0.1 (default) or ::1")
    parser.add_argument("--port-file", help="write the port number to this file once listening")
    parser.add_argument("--rpm", type=int, default=10,
                        help="requests per minute for keys without their own limit; 0 = unlimited (default 10)")
    parser.add_argument("--burst", type=int, default=2, help="token-bucket capacity per key (default 2)")
    parser.add_argument("--latency-ms", type=int, default=0, help="delay before every API response (default 0)")
    parser.add_argument("--timeout-s", type=float, default=30.0,
                        help="how long the timeout faults hang before answering (default 30)")
    parser.add_argument("--key", action="append", metavar="KEY[:RPM|:blocked|:revoked|:revoked-json]",
                        help="an accepted hibp-api-key (repeatable); default %s" % DEFAULT_KEY)
    parser.add_argument("--fixtures", help="JSON file of accounts (and passwords) to serve")
    parser.add_argument("--catalog", default=DEFAULT_CATALOG, help=argparse.SUPPRESS)
    parser.add_argument("--quiet", action="store_true", help="do not log requests to stderr")
    parser.add_argument("--k-anonymity", action="store_true",
                        help="every key's plan includes breachedaccount/range (default: no key's does)")
    parser.add_argument("--no-range-endpoint", action="store_true",
                        help="serve no breachedaccount/range: 404 as for any unknown path")
    parser.add_argument("--no-k-anonymity-field", action="store_true",
                        help="subscription/status leaves IncludesKAnon out (the plan's k-anonymity unknown)")
    args = parser.parse_args(argv)
    if args.rpm < 0 or args.burst < 1 or args.latency_ms < 0 or args.timeout_s < 0:
        parser.error("--rpm, --latency-ms and --timeout-s must be >= 0 and --burst >= 1")
    if not 0 <= args.port <= 65535:
        parser.error("--port must be 0...65535")
    try:
        args.keys = dict(parse_key_spec(spec) for spec in (args.key or [DEFAULT_KEY]))
    except ValueError as e:
        parser.error(str(e))
    return args


def main(argv=None):
    args = parse_arguments(sys.argv[1:] if argv is None else argv)
    try:
        catalog = Catalog(args.catalog)
        accounts, extra_passwords = load_fixtures(args.fixtures) if args.fixtures else ({}, {})
        passwords = PasswordCorpus(DEFAULT_PASSWORDS, extra_passwords)
        book = AccountBook(catalog, accounts)
    except DataError as e:
        print("fake-hibp: error: %s" % e, file=sys.stderr)
        return 1
    config = Config(args.rpm, args.latency_ms, args.burst, args.timeout_s, args.keys,
                    k_anonymity=args.k_anonymity, range_endpoint=not args.no_range_endpoint,
                    k_anonymity_field=not args.no_k_anonymity_field)
    app = FakeHIBP(catalog, passwords, book, config, quiet=args.quiet)
    try:
        server = FakeHIBPServer(args.port, app, args.host)
    except OSError as e:
        print("fake-hibp: error: cannot listen on %s: %s" % (url_authority(args.host, args.port), e.strerror), file=sys.stderr)
        return 1
    # The handler only records the signal: setting an Event from a handler can deadlock on its lock.
    received = []
    signal.signal(signal.SIGTERM, lambda signum, frame: received.append(signum))
    signal.signal(signal.SIGINT, lambda signum, frame: received.append(signum))
    # A parent may have spawned us with these signals blocked (a test runner's thread): unblock them,
    # or SIGTERM would stay pending forever and the server would outlive its test.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    serving = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
    serving.start()
    port = server.server_address[1]
    if args.port_file:
        write_port_file(args.port_file, port)
    print("fake-hibp listening on http://%s" % url_authority(args.host, port), file=sys.stderr, flush=True)
    while not received:
        time.sleep(0.2)
    app.stopping.set()
    server.shutdown()
    server.server_close()
    if args.port_file:
        try:
            os.unlink(args.port_file)
        except OSError:
            pass
    if not args.quiet:
        print("fake-hibp: stopped", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
