/* Placeholder; filled in by the keyring work. */
#pragma once
int pwv_secret_placeholder(void);
