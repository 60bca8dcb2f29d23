#include "pwv_intl.h"
#include <libintl.h>
#include <locale.h>

static const char *const domain = "pwnvault";

const char *pwv_intl_start(const char *dir) {
    const char *locale = setlocale(LC_MESSAGES, "");
    if (locale == NULL) locale = setlocale(LC_MESSAGES, NULL);
    bindtextdomain(domain, dir);
    bind_textdomain_codeset(domain, "UTF-8");
    return locale == NULL ? "C" : locale;
}

const char *pwv_intl_text(const char *msgid) { return dgettext(domain, msgid); }

const char *pwv_intl_plural(const char *one, const char *many, unsigned long n) {
    return dngettext(domain, one, many, n);
}

const char *pwv_intl_header(void) {
    const char *header = dgettext(domain, "");
    return header == NULL ? "" : header;
}

const char *pwv_intl_locale(void) {
    const char *locale = setlocale(LC_MESSAGES, "");
    if (locale == NULL) locale = setlocale(LC_MESSAGES, NULL);
    return locale == NULL ? "C" : locale;
}

void pwv_intl_bind(const char *dir) {
    bindtextdomain(domain, dir);
    bind_textdomain_codeset(domain, "UTF-8");
}
