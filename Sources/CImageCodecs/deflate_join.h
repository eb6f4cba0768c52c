// Joining raw deflate streams compressed apart into one, as pigz does with zlib's full flush, for
// a compressor (libdeflate) that always ends its stream with a final block. Internal to
// CImageCodecs.
#ifndef ARSCENE_DEFLATE_JOIN_H
#define ARSCENE_DEFLATE_JOIN_H

#include <stddef.h>
#include <stdint.h>

// Finds the last block of the raw deflate stream `data` (RFC 1951): the bit offset of its header
// (its first bit is BFINAL) and the bit offset just past its end. Walks every block, decoding
// Huffman codes only far enough to find each block's end. Returns 0, or 1 for a stream that is
// not valid deflate or ends early.
int deflate_find_last_block(const uint8_t *data, size_t size, size_t *header_bit, size_t *end_bit);

// The Adler-32 of two byte strings one after the other, from theirs (`second_length` bytes in
// the second): A = A₁ + A₂ − 1 and B = B₁ + B₂ + n₂ (A₁ − 1), modulo 65521.
uint32_t adler32_join(uint32_t first, uint32_t second, size_t second_length);

#endif
