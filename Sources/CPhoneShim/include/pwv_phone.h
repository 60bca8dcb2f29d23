/* pwv_phone: phone numbers to E.164 with Debian's libphonenumber (libphonenumber8).
 *
 * Why a shim: libphonenumber's API is C++ only (classes, std::string, protobuf messages), which
 * Swift cannot call without turning on C++ interoperability for the whole module. These functions
 * have fixed arity, take and give C strings in caller-owned buffers, and never throw.
 *
 * Why a library of its own (libPwnVaultPhone.so): libphonenumber pulls in ICU, protobuf and abseil
 * (about twenty libraries). Linked into pwnvault they would be mapped and relocated at every start,
 * `list` and `--version` included. pwnvault dlopens this library the first time it reads a phone
 * number (PwnVaultCore/Phones/PhoneNumberLibrary.swift, the only file that touches it); nothing in
 * the executable names it, so a missing libphonenumber is one error for phone numbers, not a binary
 * that does not start. The Swift side mirrors these declarations; keep the two in step. */
#pragma once
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What pwv_phone_format_e164 returns. */
#define PWV_PHONE_OK 0
#define PWV_PHONE_NO_REGION 1      /* national form, and no (known) default region to read it in */
#define PWV_PHONE_NOT_A_NUMBER 2   /* libphonenumber does not read it as a phone number */
#define PWV_PHONE_TOO_SHORT 3      /* too short for its country (or only dialable locally) */
#define PWV_PHONE_TOO_LONG 4       /* too long for its country */
#define PWV_PHONE_INVALID_LENGTH 5 /* a length its country never uses */
#define PWV_PHONE_FAILED (-1)      /* out too small, or an unexpected failure inside libphonenumber */

/* Bits of *flags. */
#define PWV_PHONE_HAD_EXTENSION 1  /* the text carried an extension (";ext=5555", " ext. 5555"); dropped */
#define PWV_PHONE_VALID 2          /* a number in use in its country's plan, as the metadata knows it */

/* Reads `text` (international "+44 …", national "07700 …" read in `default_region`, or an RFC 3966
 * "tel:" URI) and writes its E.164 form ("+447700900123", NUL-terminated) to out. default_region is
 * a CLDR two-letter region ("GB") or NULL/"" for none. The region the number belongs to goes to
 * region_out (3 bytes) when it is not NULL. */
int pwv_phone_format_e164(const char *text, const char *default_region, char *out, size_t cap,
                          char *region_out, int *flags);

/* 1 when libphonenumber has metadata for `region` ("GB"), 0 otherwise. */
int pwv_phone_region_known(const char *region);

/* The country calling code of `region` ("GB" → 44), 0 when libphonenumber does not know it. */
int pwv_phone_country_code(const char *region);

/* Every region libphonenumber has metadata for, two letters each, sorted and separated by spaces
 * ("AC AD AE …"), NUL-terminated in out. Returns how many, or -1 when out is too small. */
int pwv_phone_regions(char *out, size_t cap);

#ifdef __cplusplus
}
#endif
