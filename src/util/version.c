/* version.c - gpuc_version / gpuc_version_string: the version of the library actually loaded, which a
 * program compares with the GPUC_VERSION_* macros it was compiled against. */
#include <gpuc.h>

/* Two levels so that the macros expand to their numbers before they become text. */
#define GPUC_STR_(x) #x
#define GPUC_STR(x) GPUC_STR_(x)

int gpuc_version(void)
{
    return GPUC_VERSION_MAJOR * 10000 + GPUC_VERSION_MINOR * 100 + GPUC_VERSION_PATCH;
}

const char *gpuc_version_string(void)
{
    return GPUC_STR(GPUC_VERSION_MAJOR) "." GPUC_STR(GPUC_VERSION_MINOR) "." GPUC_STR(GPUC_VERSION_PATCH);
}
