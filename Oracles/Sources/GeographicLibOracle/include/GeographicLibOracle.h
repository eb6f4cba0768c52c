// GeographicLib 2.1 (Debian libgeographiclib-dev) behind a C ABI: the peer Tools/bench measures
// the geodesy against. Not part of any ARScene product.
#ifndef ARSCENE_GEOGRAPHICLIB_ORACLE_H
#define ARSCENE_GEOGRAPHICLIB_ORACLE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// LocalCartesian::Forward at origin (lat0, lon0, h0) for `count` points given as interleaved
/// (lat, lon, h) triples; writes interleaved (e, n, u).
void geographiclib_oracle_to_enu(double lat0, double lon0, double h0, const double *geodetic, size_t count,
                                 double *enu);

/// LocalCartesian::Reverse: interleaved (e, n, u) to (lat, lon, h).
void geographiclib_oracle_from_enu(double lat0, double lon0, double h0, const double *enu, size_t count,
                                   double *geodetic);

/// Geodesic::WGS84().Inverse for `count` pairs given as (lat1, lon1, lat2, lon2); writes
/// (s12, azi1, azi2).
void geographiclib_oracle_inverse(const double *pairs, size_t count, double *results);

#ifdef __cplusplus
}
#endif
#endif
