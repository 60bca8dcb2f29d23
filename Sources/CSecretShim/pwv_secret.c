#include "pwv_secret.h"
int pwv_secret_placeholder(void) { return 0; }
