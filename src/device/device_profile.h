/* device_profile.h - decides the device profile (struct device_profile, gpuc_device_profile) of a
 * context once, from what the driver is or what the user forced. */
#ifndef GPUC_DEVICE_PROFILE_H
#define GPUC_DEVICE_PROFILE_H

#include "internal.h"

/* The profile asked for: the option, else GPUC_DEVICE_PROFILE, else GPUC_PROFILE_AUTO. Fails with a
 * message naming the option or the variable for a value that is not a profile. */
gpuc_status device_profile_parse(gpuc *gpu, gpuc_device_profile asked, gpuc_device_profile *out);

/* Fills gpu->device_profile and the profile's fields of gpu->info (device_profile, its name,
 * loop_budget) for `asked`: AUTO takes the driver's own (gpu->info.software). The context is current
 * and gpu->info is filled. */
void device_profile_choose(gpuc *gpu, gpuc_device_profile asked);

#endif
