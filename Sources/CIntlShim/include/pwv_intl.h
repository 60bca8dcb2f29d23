/* pwv_intl: glibc's gettext (libintl is part of glibc) for pwnvault's messages, under the text domain
 * "pwnvault". Why a shim: libintl.h is not in Swift's Glibc module, and the domain, its folder and its
 * UTF-8 codeset are bound once here, so Swift never passes a domain name around.
 *
 * Only LC_MESSAGES is taken from the environment (LC_ALL, LC_MESSAGES, LANG; LANGUAGE as gettext reads
 * it): numbers, character classes and collation stay those of the C locale the rest of pwnvault assumes.
 * Translations are returned as UTF-8 whatever the locale's code page. */
#pragma once
#include <stddef.h>

/* Binds the domain to `dir` (…/share/locale) and takes LC_MESSAGES from the environment. Returns the
   LC_MESSAGES locale in force ("C" when the environment names none or one that is not installed). */
const char *pwv_intl_start(const char *dir);

/* Takes LC_MESSAGES from the environment, binding nothing: the caller first decides which folder, if
   any, may be trusted with a catalog (its Plural-Forms checked), then calls pwv_intl_bind. Returns the
   LC_MESSAGES locale in force ("C" when the environment names none or one that is not installed). */
const char *pwv_intl_locale(void);

/* Binds the domain to `dir` (…/share/locale), its translations in UTF-8. */
void pwv_intl_bind(const char *dir);

/* The translation of `msgid`, or `msgid` itself (the same pointer) when there is none. */
const char *pwv_intl_text(const char *msgid);

/* The translation of the plural pair for `n`, or `one`/`many` as English chooses. */
const char *pwv_intl_plural(const char *one, const char *many, unsigned long n);

/* The loaded catalog's header (the translation of the empty msgid), or "" when no catalog was found. */
const char *pwv_intl_header(void);
