/* See include/pwv_iconv.h for why this shim exists. */
#define _GNU_SOURCE
#include "pwv_iconv.h"

#include <errno.h>
#include <iconv.h>
#include <langinfo.h>
#include <locale.h>
#include <string.h>

int pwv_iconv_to_utf8(const char *charset, const unsigned char *in, size_t len,
                      unsigned char *out, size_t cap, size_t *written) {
    *written = 0;
    iconv_t cd = iconv_open("UTF-8", charset);
    if (cd == (iconv_t)-1) return PWV_ICONV_UNKNOWN_CHARSET;
    char *src = (char *)in;   /* iconv does not write through it */
    size_t src_left = len;
    char *dst = (char *)out;
    size_t dst_left = cap;
    int result = PWV_ICONV_OK;
    if (iconv(cd, &src, &src_left, &dst, &dst_left) == (size_t)-1) {
        result = errno == E2BIG ? PWV_ICONV_NO_ROOM : PWV_ICONV_INVALID;   /* EILSEQ, or EINVAL: cut off */
    } else if (iconv(cd, NULL, NULL, &dst, &dst_left) == (size_t)-1) {     /* back to the initial shift state */
        result = errno == E2BIG ? PWV_ICONV_NO_ROOM : PWV_ICONV_INVALID;
    }
    iconv_close(cd);
    *written = cap - dst_left;
    return result;
}

int pwv_locale_codeset(const char *locale_name, char *out, size_t cap) {
    locale_t loc = newlocale(LC_CTYPE_MASK, locale_name, (locale_t)0);
    if (loc == (locale_t)0) return -1;
    const char *codeset = nl_langinfo_l(CODESET, loc);
    int result = -1;
    if (codeset != NULL && strlen(codeset) < cap) {
        strcpy(out, codeset);
        result = 0;
    }
    freelocale(loc);
    return result;
}
