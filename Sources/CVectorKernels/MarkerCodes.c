#include "CVectorKernels.h"
#include "PortableKernels.h"

// The search `MarkerDetector.decode` makes, turn by turn and code by code: the first strictly
// nearest (turn, id) within `limit`, and whether another id lies as near. The same loop twice:
// once where the compiler may use the POPCNT instruction (every x86-64 CPU of the last fifteen
// years has it, the baseline the Swift build targets does not), once portable.
static inline __attribute__((always_inline)) void nearest(const unsigned long long *codes, long count,
                                                          const unsigned long long turned[4], int limit,
                                                          arscene_code_match *out) {
  long best_id = -1;
  int best_distance = limit + 1, best_turn = 0, tied = 0;
  for (int turn = 0; turn < 4; turn++) {
    unsigned long long code = turned[turn];
    for (long id = 0; id < count; id++) {
      int d = __builtin_popcountll(codes[id] ^ code);
      if (d > limit) continue;
      if (d < best_distance) {
        best_id = id;
        best_distance = d;
        best_turn = turn;
        tied = 0;
      } else if (d == best_distance && id != best_id) {
        tied = 1;
      }
    }
  }
  out->id = best_id;
  out->distance = best_distance;
  out->turn = best_turn;
  out->tied = tied;
}

#if defined(__x86_64__)
__attribute__((target("popcnt"))) static void nearest_popcnt(const unsigned long long *codes, long count,
                                                             const unsigned long long turned[4], int limit,
                                                             arscene_code_match *out) {
  nearest(codes, count, turned, limit, out);
}

static int has_popcnt(void) {
  if (arscene_portable_kernels_requested()) return 0;
  __builtin_cpu_init();
  return __builtin_cpu_supports("popcnt") ? 1 : 0;
}
#endif

void arscene_nearest_code(const unsigned long long *codes, long count, const unsigned long long turned[4],
                          int limit, arscene_code_match *out) {
#if defined(__x86_64__)
  static int popcnt = -1;  // decided once; a race only decides it twice, the same way
  if (popcnt < 0) popcnt = has_popcnt();
  if (popcnt) {
    nearest_popcnt(codes, count, turned, limit, out);
    return;
  }
#endif
  nearest(codes, count, turned, limit, out);
}
