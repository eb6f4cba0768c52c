#include <isa-l/igzip_lib.h>
