// What PNG's row filters share between the encoder and the decoder (ISO/IEC 15948, section 9).
#ifndef ARSCENE_PNG_FILTERS_H
#define ARSCENE_PNG_FILTERS_H

#include <stdint.h>
#include <stdlib.h>

// The Paeth predictor, without branches (so that loops over it vectorise or at least pipeline).
static inline uint8_t paeth(uint8_t a, uint8_t b, uint8_t c) {
  int p = (int)a + b - c;
  int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
  int take_a = (pa <= pb) & (pa <= pc);
  int take_b = !take_a & (pb <= pc);
  return (uint8_t)(take_a ? a : (take_b ? b : c));
}

#endif
