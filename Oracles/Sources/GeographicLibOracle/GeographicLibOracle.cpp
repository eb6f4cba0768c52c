#include "GeographicLibOracle.h"

#include <GeographicLib/Geodesic.hpp>
#include <GeographicLib/LocalCartesian.hpp>

using GeographicLib::Geodesic;
using GeographicLib::LocalCartesian;

void geographiclib_oracle_to_enu(double lat0, double lon0, double h0, const double *geodetic, size_t count,
                                 double *enu) {
  const LocalCartesian frame(lat0, lon0, h0);
  for (size_t i = 0; i < count; ++i) {
    frame.Forward(geodetic[3 * i], geodetic[3 * i + 1], geodetic[3 * i + 2], enu[3 * i], enu[3 * i + 1],
                  enu[3 * i + 2]);
  }
}

void geographiclib_oracle_from_enu(double lat0, double lon0, double h0, const double *enu, size_t count,
                                   double *geodetic) {
  const LocalCartesian frame(lat0, lon0, h0);
  for (size_t i = 0; i < count; ++i) {
    frame.Reverse(enu[3 * i], enu[3 * i + 1], enu[3 * i + 2], geodetic[3 * i], geodetic[3 * i + 1],
                  geodetic[3 * i + 2]);
  }
}

void geographiclib_oracle_inverse(const double *pairs, size_t count, double *results) {
  const Geodesic &geodesic = Geodesic::WGS84();
  for (size_t i = 0; i < count; ++i) {
    geodesic.Inverse(pairs[4 * i], pairs[4 * i + 1], pairs[4 * i + 2], pairs[4 * i + 3], results[3 * i],
                     results[3 * i + 1], results[3 * i + 2]);
  }
}
