/* pwv_phone.cc: see include/pwv_phone.h for why this shim exists and why it is its own library. */
#include "pwv_phone.h"

#include <cstring>
#include <set>
#include <string>

#include <phonenumbers/phonenumber.pb.h>
#include <phonenumbers/phonenumberutil.h>

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

namespace {

/* GetInstance() is a thread-safe singleton; it loads the metadata of every region once. */
const PhoneNumberUtil &util() { return *PhoneNumberUtil::GetInstance(); }

int status_for(PhoneNumberUtil::ErrorType error) {
    switch (error) {
    case PhoneNumberUtil::INVALID_COUNTRY_CODE_ERROR: return PWV_PHONE_NO_REGION;
    case PhoneNumberUtil::TOO_SHORT_AFTER_IDD:
    case PhoneNumberUtil::TOO_SHORT_NSN: return PWV_PHONE_TOO_SHORT;
    case PhoneNumberUtil::TOO_LONG_NSN: return PWV_PHONE_TOO_LONG;
    default: return PWV_PHONE_NOT_A_NUMBER;
    }
}

int status_for(PhoneNumberUtil::ValidationResult result) {
    switch (result) {
    case PhoneNumberUtil::IS_POSSIBLE: return PWV_PHONE_OK;
    case PhoneNumberUtil::INVALID_COUNTRY_CODE: return PWV_PHONE_NO_REGION;
    /* A number dialable only inside its area (no area code) is no account HIBP can know. */
    case PhoneNumberUtil::IS_POSSIBLE_LOCAL_ONLY:
    case PhoneNumberUtil::TOO_SHORT: return PWV_PHONE_TOO_SHORT;
    case PhoneNumberUtil::TOO_LONG: return PWV_PHONE_TOO_LONG;
    default: return PWV_PHONE_INVALID_LENGTH;
    }
}

}  // namespace

extern "C" int pwv_phone_format_e164(const char *text, const char *default_region, char *out, size_t cap,
                                     char *region_out, int *flags) {
    try {
        if (flags != nullptr) *flags = 0;
        if (region_out != nullptr) region_out[0] = '\0';
        if (text == nullptr || out == nullptr || cap == 0) return PWV_PHONE_FAILED;
        out[0] = '\0';
        /* "ZZ" is libphonenumber's "unknown region": only numbers written with + (or tel:+) parse. */
        std::string region = default_region != nullptr && default_region[0] != '\0' ? default_region : "ZZ";
        PhoneNumber number;
        PhoneNumberUtil::ErrorType error = util().Parse(text, region, &number);
        if (error != PhoneNumberUtil::NO_PARSING_ERROR) return status_for(error);
        int status = status_for(util().IsPossibleNumberWithReason(number));
        if (status != PWV_PHONE_OK) return status;

        std::string e164;
        util().Format(number, PhoneNumberUtil::E164, &e164);
        if (e164.size() + 1 > cap) return PWV_PHONE_FAILED;
        std::memcpy(out, e164.c_str(), e164.size() + 1);
        if (region_out != nullptr) {
            std::string owner;
            util().GetRegionCodeForNumber(number, &owner);
            if (owner.size() == 2) std::memcpy(region_out, owner.c_str(), 3);
        }
        if (flags != nullptr) {
            if (number.has_extension()) *flags |= PWV_PHONE_HAD_EXTENSION;
            if (util().IsValidNumber(number)) *flags |= PWV_PHONE_VALID;
        }
        return PWV_PHONE_OK;
    } catch (...) {
        return PWV_PHONE_FAILED;
    }
}

extern "C" int pwv_phone_region_known(const char *region) {
    try {
        if (region == nullptr) return 0;
        /* 0 is the calling code of no region (and what an unknown one gets). "001" and other
           non-geographic entities are not two letters and never reach here. */
        return std::strlen(region) == 2 && util().GetCountryCodeForRegion(region) != 0 ? 1 : 0;
    } catch (...) {
        return 0;
    }
}

extern "C" int pwv_phone_country_code(const char *region) {
    try {
        if (region == nullptr || std::strlen(region) != 2) return 0;
        return util().GetCountryCodeForRegion(region);
    } catch (...) {
        return 0;
    }
}

extern "C" int pwv_phone_regions(char *out, size_t cap) {
    try {
        if (out == nullptr || cap == 0) return -1;
        out[0] = '\0';
        std::set<std::string> regions;   /* sorted */
        util().GetSupportedRegions(&regions);
        std::string joined;
        for (const std::string &region : regions) {
            if (!joined.empty()) joined += ' ';
            joined += region;
        }
        if (joined.size() + 1 > cap) return -1;
        std::memcpy(out, joined.c_str(), joined.size() + 1);
        return static_cast<int>(regions.size());
    } catch (...) {
        return -1;
    }
}
