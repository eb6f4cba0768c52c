// OpenEXR's C core (OpenEXRCore, Debian's libopenexr-dev): reads EXR files without its C++ layers.
#include <OpenEXR/openexr.h>
