/* pwv_http.c: see include/pwv_http.h for why this shim exists and what it promises. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pwv_http.h"

/* ---------------------------------------------------------------------------------------------
 * The part of libcurl's ABI used here (curl/curl.h of libcurl 7.x and 8.x; values never change).
 * ------------------------------------------------------------------------------------------- */
typedef void CURL;
typedef int CURLcode;
typedef int64_t curl_off_t;
struct curl_slist { char *data; struct curl_slist *next; };

#define CURL_GLOBAL_DEFAULT 3L
#define CURLOPT_WRITEDATA 10001
#define CURLOPT_URL 10002
#define CURLOPT_HTTPHEADER 10023
#define CURLOPT_HEADERDATA 10029
#define CURLOPT_NOPROGRESS 43
#define CURLOPT_FOLLOWLOCATION 52
#define CURLOPT_HTTPGET 80
#define CURLOPT_NOSIGNAL 99
#define CURLOPT_VERBOSE 41
#define CURLOPT_DEBUGFUNCTION 20094
#define CURLOPT_DEBUGDATA 10095
#define CURLINFO_HEADER_OUT 2          /* curl_infotype: request headers, reported once written */
#define CURLOPT_TIMEOUT_MS 155
#define CURLOPT_CONNECTTIMEOUT_MS 156
#define CURLOPT_WRITEFUNCTION 20011
#define CURLOPT_HEADERFUNCTION 20079
#define CURLOPT_XFERINFODATA 10057
#define CURLOPT_XFERINFOFUNCTION 20219
#define CURLOPT_MAXFILESIZE_LARGE 30117
#define CURLOPT_PREREQFUNCTION 20312   /* libcurl 7.80.0 and later (Debian 12: 7.88.1) */
#define CURLOPT_PREREQDATA 10313
#define CURLOPT_PROTOCOLS 181          /* bitmask form: works on every libcurl 7.19.4+ */
#define CURLOPT_REDIR_PROTOCOLS 182
#define CURLPROTO_HTTP 1L
#define CURLPROTO_HTTPS 2L
#define CURLINFO_RESPONSE_CODE 0x200002

#define CURLE_OK 0
#define CURLE_UNSUPPORTED_PROTOCOL 1
#define CURLE_URL_MALFORMAT 3
#define CURLE_COULDNT_RESOLVE_PROXY 5
#define CURLE_COULDNT_RESOLVE_HOST 6
#define CURLE_COULDNT_CONNECT 7
#define CURLE_WEIRD_SERVER_REPLY 8
#define CURLE_PARTIAL_FILE 18
#define CURLE_WRITE_ERROR 23
#define CURLE_OPERATION_TIMEDOUT 28
#define CURLE_SSL_CONNECT_ERROR 35
#define CURLE_ABORTED_BY_CALLBACK 42
#define CURLE_GOT_NOTHING 52
#define CURLE_SSL_ENGINE_NOTFOUND 53
#define CURLE_SEND_ERROR 55
#define CURLE_RECV_ERROR 56
#define CURLE_SSL_CERTPROBLEM 58
#define CURLE_SSL_CIPHER 59
#define CURLE_PEER_FAILED_VERIFICATION 60
#define CURLE_FILESIZE_EXCEEDED 63
#define CURLE_SSL_CACERT_BADFILE 77
#define CURLE_SSL_ISSUER_ERROR 83
#define CURLE_SSL_PINNEDPUBKEYNOTMATCH 90
#define CURLE_SSL_INVALIDCERTSTATUS 91
#define CURLE_HTTP2 16
#define CURLE_HTTP2_STREAM 92
#define CURLE_PROXY 97

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, int, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, int, ...);
    void (*easy_reset)(CURL *);
    void (*easy_cleanup)(CURL *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static atomic_int loaded;   /* 1 loaded, -1 failed */

/* Loading: why dlopen and not a link. See the header. RTLD_LOCAL keeps libcurl's symbols out of the
 * global namespace; curl_global_init runs once, here, before any thread of ours uses libcurl. */
static void load(void) {
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) { atomic_store(&loaded, -1); return; }
#define SYM(field, name) *(void **)(&curl.field) = dlsym(lib, name); if (curl.field == NULL) goto fail
    SYM(global_init, "curl_global_init");
    SYM(easy_init, "curl_easy_init");
    SYM(easy_setopt, "curl_easy_setopt");
    SYM(easy_perform, "curl_easy_perform");
    SYM(easy_getinfo, "curl_easy_getinfo");
    SYM(easy_reset, "curl_easy_reset");
    SYM(easy_cleanup, "curl_easy_cleanup");
    SYM(slist_append, "curl_slist_append");
    SYM(slist_free_all, "curl_slist_free_all");
#undef SYM
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) goto fail;
    atomic_store(&loaded, 1);
    return;
fail:
    atomic_store(&loaded, -1);
}

int pwv_http_loaded(void) { return atomic_load(&loaded) == 1; }

static void *preload_thread(void *arg) {
    (void)arg;
    pthread_once(&load_once, load);
    return NULL;
}

void pwv_http_preload(void) {
    pthread_attr_t attr;
    pthread_t thread;
    if (pthread_attr_init(&attr) != 0) return;   /* then the first request loads it, as without this */
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 512u << 10);
    (void)pthread_create(&thread, &attr, preload_thread, NULL);
    pthread_attr_destroy(&attr);
}

/* ---------------------------------------------------------------------------------------------
 * Handles: why a pool. An easy handle keeps its connection cache across curl_easy_reset, so a
 * handle taken back from the pool reuses the connection (and TLS session) to HIBP instead of a new
 * handshake per request. At most POOL_MAX are kept; the check scheduler has at most 16 in flight.
 * ------------------------------------------------------------------------------------------- */
#define POOL_MAX 16
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static CURL *pool[POOL_MAX];
static int pool_count;

static CURL *handle_take(void) {
    CURL *h = NULL;
    pthread_mutex_lock(&pool_lock);
    if (pool_count > 0) h = pool[--pool_count];
    pthread_mutex_unlock(&pool_lock);
    if (h != NULL) { curl.easy_reset(h); return h; }
    return curl.easy_init();
}

static void handle_give(CURL *h) {
    pthread_mutex_lock(&pool_lock);
    if (pool_count < POOL_MAX) { pool[pool_count++] = h; h = NULL; }
    pthread_mutex_unlock(&pool_lock);
    if (h != NULL) curl.easy_cleanup(h);
}

/* ---------------------------------------------------------------------------------------------
 * A transfer
 * ------------------------------------------------------------------------------------------- */
struct pwv_http_transfer {
    atomic_int refs;
    atomic_int cancelled;
    char *url;
    char **headers;
    size_t header_count;
    long timeout_ms;
    size_t max_body;
    pwv_http_done done;
    void *context;
    /* results */
    int outcome;
    int curl_code;
    long status;
    unsigned char *body;
    size_t body_len, body_cap;
    char *head;
    size_t head_len, head_cap;
    int too_large;
    long long gap_ns;
    int pace_held;   /* this transfer holds pace_lock: past on_prereq, its headers not yet written */
};

/* The wire pacer: when the last paced request went out (CLOCK_MONOTONIC ns), under its lock.
 *
 * "Went out" is the moment libcurl's write of the request headers returned (the server stamps the
 * request on arrival, and on loopback the bytes arrive during that write), not the moment the wait
 * ended: a thread pre-empted between the two would otherwise send late and let the next request
 * follow too closely. So pace_lock is taken in on_prereq and held until on_debug sees the headers
 * written (or, if they never are, until the transfer ends): paced requests leave one at a time, each
 * at least its gap after the previous one actually left. */
static pthread_mutex_t pace_lock = PTHREAD_MUTEX_INITIALIZER;
static long long last_paced_send;

static long long monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void pwv_http_set_gap(pwv_http_transfer *t, long long gap_ns) { t->gap_ns = gap_ns > 0 ? gap_ns : 0; }

/* Ends this transfer's turn on the wire: `sent` when its headers were written (the next paced
 * request is due a gap after now); otherwise nothing left and the previous moment stands. */
static void pace_release(pwv_http_transfer *t, int sent) {
    if (!t->pace_held) return;
    if (sent) last_paced_send = monotonic_ns();
    t->pace_held = 0;
    pthread_mutex_unlock(&pace_lock);
}

/* Called by libcurl once connected, right before the request is sent: waits out the gap, then keeps
 * the lock until the request has been written (on_debug) so the next one spaces from that moment. */
static int on_prereq(void *user, char *primary_ip, char *local_ip, int primary_port, int local_port) {
    (void)primary_ip; (void)local_ip; (void)primary_port; (void)local_port;
    pwv_http_transfer *t = user;
    if (t->gap_ns <= 0 || t->pace_held) return 0;
    pthread_mutex_lock(&pace_lock);
    t->pace_held = 1;
    long long now = monotonic_ns();
    long long due = last_paced_send + t->gap_ns;
    while (now < due && !atomic_load(&t->cancelled)) {
        long long left = due - now;
        if (left > 5000000LL) left = 5000000LL;   /* re-check cancellation every 5 ms */
        struct timespec ts = { (time_t)(left / 1000000000LL), (long)(left % 1000000000LL) };
        nanosleep(&ts, NULL);
        now = monotonic_ns();
    }
    if (atomic_load(&t->cancelled)) { pace_release(t, 0); return 1; }   /* 1 = CURL_PREREQFUNC_ABORT */
    return 0;
}

/* libcurl's trace (CURLOPT_VERBOSE with a callback of ours: nothing is printed). Only used to learn
 * when the request headers have been written; what it is given (headers with the key, the URL with
 * the account) is neither kept nor copied. */
static int on_debug(CURL *handle, int type, char *data, size_t size, void *user) {
    (void)handle; (void)data; (void)size;
    if (type == CURLINFO_HEADER_OUT) pace_release(user, 1);
    return 0;
}

static void wipe_free(char *s) {
    if (s == NULL) return;
    explicit_bzero(s, strlen(s));
    free(s);
}

pwv_http_transfer *pwv_http_new(const char *url, const char *const *headers, size_t header_count,
                                long timeout_ms, size_t max_body) {
    pwv_http_transfer *t = calloc(1, sizeof *t);
    if (t == NULL) return NULL;
    atomic_init(&t->refs, 1);
    atomic_init(&t->cancelled, 0);
    t->url = strdup(url);
    t->headers = calloc(header_count + 1, sizeof *t->headers);
    if (t->url == NULL || t->headers == NULL) goto fail;
    for (size_t i = 0; i < header_count; i++) {
        t->headers[i] = strdup(headers[i]);
        if (t->headers[i] == NULL) goto fail;
        t->header_count = i + 1;
    }
    t->timeout_ms = timeout_ms > 0 ? timeout_ms : 1;
    t->max_body = max_body;
    return t;
fail:
    pwv_http_release(t);
    return NULL;
}

void pwv_http_release(pwv_http_transfer *t) {
    if (t == NULL || atomic_fetch_sub(&t->refs, 1) != 1) return;
    free(t->url);
    if (t->headers != NULL) {
        for (size_t i = 0; i < t->header_count; i++) wipe_free(t->headers[i]);
        free(t->headers);
    }
    free(t->body);
    free(t->head);
    free(t);
}

void pwv_http_cancel(pwv_http_transfer *t) { atomic_store(&t->cancelled, 1); }

int pwv_http_outcome(const pwv_http_transfer *t) { return t->outcome; }
int pwv_http_curl_code(const pwv_http_transfer *t) { return t->curl_code; }
long pwv_http_status(const pwv_http_transfer *t) { return t->status; }
const unsigned char *pwv_http_body(const pwv_http_transfer *t, size_t *length) { *length = t->body_len; return t->body; }
const char *pwv_http_headers(const pwv_http_transfer *t, size_t *length) { *length = t->head_len; return t->head; }

static int grow(void **buf, size_t *cap, size_t need) {
    if (need <= *cap) return 1;
    size_t n = *cap ? *cap : 4096;
    while (n < need) n *= 2;
    void *p = realloc(*buf, n);
    if (p == NULL) return 0;
    *buf = p;
    *cap = n;
    return 1;
}

/* The body, under the cap: past it, returning less than given makes libcurl stop (CURLE_WRITE_ERROR). */
static size_t on_body(char *data, size_t size, size_t count, void *user) {
    pwv_http_transfer *t = user;
    size_t n = size * count;
    if (t->body_len + n > t->max_body) { t->too_large = 1; return 0; }
    if (!grow((void **)&t->body, &t->body_cap, t->body_len + n)) return 0;
    memcpy(t->body + t->body_len, data, n);
    t->body_len += n;
    return n;
}

/* Header lines; a new status line (after 100 Continue or a proxy's CONNECT answer) starts over. */
static size_t on_header(char *data, size_t size, size_t count, void *user) {
    pwv_http_transfer *t = user;
    size_t n = size * count;
    if (n >= 5 && memcmp(data, "HTTP/", 5) == 0) t->head_len = 0;
    if (t->head_len + n > (256u << 10)) return 0;   /* 256 KiB of headers is not an HIBP answer */
    if (!grow((void **)&t->head, &t->head_cap, t->head_len + n + 1)) return 0;
    memcpy(t->head + t->head_len, data, n);
    t->head_len += n;
    t->head[t->head_len] = '\0';
    return n;
}

/* Progress: the only way to stop a running easy transfer from another thread is to have libcurl
 * ask, which it does at least once a second and on every chunk. */
static int on_progress(void *user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow) {
    (void)dltotal; (void)dlnow; (void)ultotal; (void)ulnow;
    pwv_http_transfer *t = user;
    return atomic_load(&t->cancelled) ? 1 : 0;
}

static int classify(pwv_http_transfer *t, CURLcode code) {
    if (atomic_load(&t->cancelled)) return PWV_HTTP_CANCELLED;
    if (t->too_large || code == CURLE_FILESIZE_EXCEEDED) return PWV_HTTP_TOO_LARGE;
    switch (code) {
    case CURLE_OPERATION_TIMEDOUT: return PWV_HTTP_TIMEOUT;
    case CURLE_COULDNT_RESOLVE_HOST: case CURLE_COULDNT_RESOLVE_PROXY: return PWV_HTTP_DNS;
    case CURLE_COULDNT_CONNECT: return PWV_HTTP_REFUSED;
    case CURLE_SSL_CONNECT_ERROR: case CURLE_SSL_ENGINE_NOTFOUND: case CURLE_SSL_CIPHER: return PWV_HTTP_TLS;
    case CURLE_PEER_FAILED_VERIFICATION: case CURLE_SSL_CERTPROBLEM: case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR: case CURLE_SSL_PINNEDPUBKEYNOTMATCH: case CURLE_SSL_INVALIDCERTSTATUS:
        return PWV_HTTP_CERTIFICATE;
    case CURLE_SEND_ERROR: case CURLE_RECV_ERROR: case CURLE_GOT_NOTHING: case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2: case CURLE_HTTP2_STREAM:
        return PWV_HTTP_LOST;
    case CURLE_WEIRD_SERVER_REPLY: return PWV_HTTP_NOT_HTTP;
    case CURLE_PROXY: return PWV_HTTP_PROXY;
    case CURLE_UNSUPPORTED_PROTOCOL: case CURLE_URL_MALFORMAT: return PWV_HTTP_INVALID;
    default: return PWV_HTTP_OTHER;
    }
}

static void perform(pwv_http_transfer *t) {
    if (atomic_load(&t->cancelled)) { t->outcome = PWV_HTTP_CANCELLED; return; }
    pthread_once(&load_once, load);
    if (atomic_load(&loaded) != 1) { t->outcome = PWV_HTTP_UNAVAILABLE; return; }
    CURL *h = handle_take();
    if (h == NULL) { t->outcome = PWV_HTTP_OTHER; return; }
    struct curl_slist *list = NULL;
    int ok = 1;
    for (size_t i = 0; i < t->header_count && ok; i++) {
        struct curl_slist *next = curl.slist_append(list, t->headers[i]);
        if (next == NULL) ok = 0; else list = next;
    }
    if (!ok) {
        curl.slist_free_all(list);
        handle_give(h);
        t->outcome = PWV_HTTP_OTHER;
        return;
    }
    curl.easy_setopt(h, CURLOPT_URL, t->url);
    curl.easy_setopt(h, CURLOPT_HTTPGET, 1L);
    curl.easy_setopt(h, CURLOPT_HTTPHEADER, list);
    curl.easy_setopt(h, CURLOPT_PROTOCOLS, CURLPROTO_HTTP | CURLPROTO_HTTPS);
    curl.easy_setopt(h, CURLOPT_REDIR_PROTOCOLS, CURLPROTO_HTTP | CURLPROTO_HTTPS);
    curl.easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    curl.easy_setopt(h, CURLOPT_NOSIGNAL, 1L);   /* threads: no SIGALRM for DNS timeouts */
    curl.easy_setopt(h, CURLOPT_TIMEOUT_MS, t->timeout_ms);
    curl.easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, t->timeout_ms);
    curl.easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)t->max_body);
    curl.easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl.easy_setopt(h, CURLOPT_WRITEDATA, t);
    curl.easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
    curl.easy_setopt(h, CURLOPT_HEADERDATA, t);
    curl.easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
    curl.easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl.easy_setopt(h, CURLOPT_XFERINFODATA, t);
    curl.easy_setopt(h, CURLOPT_PREREQFUNCTION, on_prereq);
    curl.easy_setopt(h, CURLOPT_PREREQDATA, t);
    if (t->gap_ns > 0) {
        curl.easy_setopt(h, CURLOPT_DEBUGFUNCTION, on_debug);
        curl.easy_setopt(h, CURLOPT_DEBUGDATA, t);
        curl.easy_setopt(h, CURLOPT_VERBOSE, 1L);
    }
    CURLcode code = curl.easy_perform(h);
    pace_release(t, 0);   /* the headers never went out (failed, cancelled): the lock is not kept */
    t->curl_code = code;
    if (code == CURLE_OK && !atomic_load(&t->cancelled)) {
        curl.easy_getinfo(h, CURLINFO_RESPONSE_CODE, &t->status);
        t->outcome = PWV_HTTP_OK;
    } else {
        t->outcome = classify(t, code);
    }
    /* The handle keeps pointers to the list and to t until the next reset: clear what it holds. */
    curl.easy_setopt(h, CURLOPT_HTTPHEADER, (struct curl_slist *)NULL);
    curl.slist_free_all(list);
    handle_give(h);
}

static void *run(void *arg) {
    pwv_http_transfer *t = arg;
    perform(t);
    t->done(t, t->context);
    pwv_http_release(t);
    return NULL;
}

void pwv_http_start(pwv_http_transfer *t, pwv_http_done done, void *context) {
    t->done = done;
    t->context = context;
    atomic_fetch_add(&t->refs, 1);
    pthread_attr_t attr;
    pthread_t thread;
    int started = pthread_attr_init(&attr) == 0;
    if (started) {
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        pthread_attr_setstacksize(&attr, 512u << 10);
        started = pthread_create(&thread, &attr, run, t) == 0;
        pthread_attr_destroy(&attr);
    }
    if (!started) {
        t->outcome = PWV_HTTP_OTHER;
        done(t, context);
        pwv_http_release(t);
    }
}
