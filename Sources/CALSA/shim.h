#ifndef SONDE_CALSA_SHIM_H
#define SONDE_CALSA_SHIM_H
// libasound 1.2.8 (Debian libasound2-dev): ALSA capture devices, and the `file` PCM plugin
// the tests capture through. The new hw_params API only (no ALSA_PCM_OLD_HW_PARAMS_API).
#include <alsa/asoundlib.h>
#endif
