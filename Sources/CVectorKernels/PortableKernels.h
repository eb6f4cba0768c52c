// Shared by the kernels' run-time choices (not part of the module's interface).
#ifndef ARSCENE_PORTABLE_KERNELS_H
#define ARSCENE_PORTABLE_KERNELS_H

// 1 when ARSCENE_PORTABLE_KERNELS is set to anything but empty or 0: the portable loops run on
// any CPU, a check that every kernel gives the same bits as the loop it stands for.
int arscene_portable_kernels_requested(void);

#endif
