/* pwv_iconv: text in a named character set turned into UTF-8, through glibc's iconv, for the vCard reader.
 *
 * Why a shim: iconv reports through errno (EILSEQ, EINVAL, E2BIG), which is read here, right after the
 * call, and mapped once to a return code; it takes non-const `char **` cursors into both buffers; and a
 * stateful set (ISO-2022-JP) needs a final flush call. One function opens, converts, flushes and closes,
 * so no iconv_t ever reaches Swift and none can leak. glibc's gconv modules (libc6) do the work.
 * The locale's code page is read with newlocale/nl_langinfo_l, which leave the process's locale alone. */
#pragma once
#include <stddef.h>

#define PWV_ICONV_OK 0
#define PWV_ICONV_UNKNOWN_CHARSET 1   /* iconv_open does not know `charset` */
#define PWV_ICONV_INVALID 2           /* a byte sequence not valid in `charset`, or one cut off at the end */
#define PWV_ICONV_NO_ROOM 3           /* `out` is too small: call again with more */

/* Converts `len` bytes of `in` from `charset` to UTF-8 into `out` (at most `cap` bytes), the byte count in
   `*written`. Returns one of the codes above; nothing is ever skipped or replaced. */
int pwv_iconv_to_utf8(const char *charset, const unsigned char *in, size_t len,
                      unsigned char *out, size_t cap, size_t *written);

/* The code page (nl_langinfo CODESET, e.g. "KOI8-R", "ANSI_X3.4-1968") of the LC_CTYPE of `locale_name`
   ("" means what LC_ALL, LC_CTYPE and LANG say), copied into `out` NUL-terminated. 0, or -1 when the
   locale is not installed or the name does not fit. */
int pwv_locale_codeset(const char *locale_name, char *out, size_t cap);
