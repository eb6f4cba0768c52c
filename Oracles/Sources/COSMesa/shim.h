#include <GL/osmesa.h>
#include <GL/gl.h>
