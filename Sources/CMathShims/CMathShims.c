// Header-only: the functions are static inline in include/CMathShims.h.
#include "CMathShims.h"
