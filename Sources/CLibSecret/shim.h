/* libsecret allows only its umbrella header to be included directly. */
#include <libsecret/secret.h>
