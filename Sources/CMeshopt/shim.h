#include <meshoptimizer.h>
