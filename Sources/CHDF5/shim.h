#ifndef SONDE_CHDF5_SHIM_H
#define SONDE_CHDF5_SHIM_H
// libhdf5, serial build. Debian installs its headers under /usr/include/hdf5/serial and the
// library as libhdf5_serial; elsewhere (pkg-config's -I) plain <hdf5.h>.
#if __has_include(<hdf5/serial/hdf5.h>)
#include <hdf5/serial/hdf5.h>
#else
#include <hdf5.h>
#endif

// These are macros that read library globals after H5open(), which Swift cannot import.
static inline hid_t sonde_h5p_default(void) { return H5P_DEFAULT; }
static inline hid_t sonde_h5s_all(void) { return H5S_ALL; }
static inline hid_t sonde_h5e_default(void) { return H5E_DEFAULT; }
static inline unsigned sonde_h5f_acc_rdonly(void) { return H5F_ACC_RDONLY; }
static inline hid_t sonde_h5t_native_double(void) { return H5T_NATIVE_DOUBLE; }
static inline hid_t sonde_h5t_native_int64(void) { return H5T_NATIVE_INT64; }
static inline hid_t sonde_h5t_native_uint64(void) { return H5T_NATIVE_UINT64; }
#endif
