/* pwv_http: one HTTP GET through libcurl, loaded with dlopen at the first request
 * (from CurlTransport.swift only).
 *
 * Why a shim at all:
 *   - Start-up. Linking libcurl (directly, or through FoundationNetworking's URLSession) makes every
 *     pwnvault command map libcurl and its TLS, Kerberos, LDAP, SSH and HTTP/2 libraries before main
 *     runs, although most commands never go online. Here libcurl.so.4 is dlopen'ed the first time a
 *     request is made, so `list`, `add` or `--version` never load it (see /proc/PID/maps).
 *   - Control. The transfer's policy is set here, in one place, option by option: http and https
 *     only, no redirects (they would carry the API key elsewhere), a total deadline, a body cap that
 *     aborts at the headers (declared length) or as soon as the streamed body passes it, no cookies,
 *     no netrc, peer and host verification on (libcurl's defaults, never turned off). Proxies come
 *     from the environment as libcurl reads them (http_proxy, HTTPS_PROXY, ALL_PROXY, NO_PROXY).
 *   - libcurl's setopt is C-variadic, which Swift cannot call; and a blocking transfer needs a thread
 *     that is not one of Swift's cooperative ones. pwv_http_start runs it on a thread of its own and
 *     calls back once.
 *
 * No libcurl headers are needed to build this (no -dev package): the few entry points and option
 * numbers used are declared in pwv_http.c; they are part of libcurl's stable ABI (soname 4).
 */
#pragma once
#include <stddef.h>

/* Outcomes. 0 is an HTTP response (any status); the rest are failures below HTTP. */
enum {
    PWV_HTTP_OK = 0,
    PWV_HTTP_TIMEOUT = 1,          /* the deadline passed */
    PWV_HTTP_TOO_LARGE = 2,        /* the body (declared or streamed) passed the cap */
    PWV_HTTP_CANCELLED = 3,        /* pwv_http_cancel was called */
    PWV_HTTP_DNS = 4,              /* the host (or the proxy's host) name did not resolve */
    PWV_HTTP_REFUSED = 5,          /* no connection could be made */
    PWV_HTTP_TLS = 6,              /* the TLS handshake failed */
    PWV_HTTP_CERTIFICATE = 7,      /* the server's certificate was not trusted */
    PWV_HTTP_LOST = 8,             /* the connection broke, or closed without an answer */
    PWV_HTTP_NOT_HTTP = 9,         /* the answer was not valid HTTP */
    PWV_HTTP_PROXY = 10,           /* the proxy failed */
    PWV_HTTP_UNAVAILABLE = 11,     /* libcurl could not be loaded */
    PWV_HTTP_INVALID = 12,         /* the request could not be sent as given */
    PWV_HTTP_OTHER = 13            /* anything else; see curl_code */
};

typedef struct pwv_http_transfer pwv_http_transfer;

/* Called once per transfer, on the transfer's own thread, when it ended. */
typedef void (*pwv_http_done)(pwv_http_transfer *transfer, void *context);

/* A transfer of `url` with `header_count` "name: value" lines. All strings are copied (header
 * copies are wiped when the transfer is freed: one of them may hold the API key). Returns NULL when
 * out of memory. The caller owns one reference; pwv_http_release drops it. */
pwv_http_transfer *pwv_http_new(const char *url, const char *const *headers, size_t header_count,
                                long timeout_ms, size_t max_body);

/* Starts loading libcurl on a thread of its own (mapping it and the TLS, Kerberos and LDAP libraries
 * it pulls in takes tens of milliseconds), for a command that knows it will go online before it has
 * other work done (opening the vault). Returns at once; the first request waits for the load as
 * always. */
void pwv_http_preload(void);

/* Wire pacing: the request goes out no sooner than `gap_ns` after the previous paced request went
 * out (process-wide): it is held at the moment libcurl is about to send it on an established
 * connection, and "went out" is when libcurl's write of the previous request's headers returned.
 * The check scheduler paces the starts; this keeps the delay between a start and the bytes leaving
 * (thread start, connecting, a thread pre-empted before its write) from bringing two requests closer
 * on the wire than the key allows. 0 (the default) = not paced, and not counted. */
void pwv_http_set_gap(pwv_http_transfer *transfer, long long gap_ns);

/* Runs the transfer on a new thread; `done(transfer, context)` is called when it ends (also when
 * it could not start: then on the calling thread, before this returns). */
void pwv_http_start(pwv_http_transfer *transfer, pwv_http_done done, void *context);

/* Asks a running transfer to stop as soon as it can (thread-safe, any time before release). */
void pwv_http_cancel(pwv_http_transfer *transfer);

/* Valid once `done` was called. */
int pwv_http_outcome(const pwv_http_transfer *transfer);
int pwv_http_curl_code(const pwv_http_transfer *transfer);
long pwv_http_status(const pwv_http_transfer *transfer);
const unsigned char *pwv_http_body(const pwv_http_transfer *transfer, size_t *length);
/* The response's header block as received (status line and "Name: value" lines, CRLF-separated);
 * with several responses (100 Continue, a proxy's CONNECT), only the last one. */
const char *pwv_http_headers(const pwv_http_transfer *transfer, size_t *length);

/* Drops the caller's reference. */
void pwv_http_release(pwv_http_transfer *transfer);

/* True when libcurl has been loaded into this process (for tests of lazy loading). */
int pwv_http_loaded(void);
