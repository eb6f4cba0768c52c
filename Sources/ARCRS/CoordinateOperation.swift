import CPROJ

/// A transformation between two coordinate reference systems by PROJ (the library every GIS
/// uses): national grids (S-JTSK / Křovák, UTM, ETRS89 / TM zones…), geographic and geocentric
/// CRSs, with the datum shifts PROJ picks for the pair.
///
/// Coordinates are in each CRS's own axis order and units, as PROJ's `cs2cs` takes and prints
/// them: EPSG:4326 is latitude, longitude (degrees); EPSG:5514 easting, northing (metres);
/// EPSG:32633 easting, northing. Heights pass through where the CRSs have none.
///
/// Not thread-safe: one operation per thread (each owns its PROJ context).
public final class CoordinateOperation {
  private let context: OpaquePointer
  private let operation: OpaquePointer
  /// The source and target CRSs as given.
  public let source: String, target: String

  /// The order coordinates are given and returned in.
  public enum AxisOrder: Sendable {
    /// Each CRS's own, as its authority defines it and `cs2cs` uses (EPSG:4326: latitude first).
    case authority
    /// Easting or longitude first, then northing or latitude, as GIS files (GeoJSON, shapefiles)
    /// store positions whatever the CRS's definition says.
    case eastingFirst
  }

  /// The operation from `source` to `target`: anything PROJ takes ("EPSG:5514", a PROJ
  /// string, WKT), coordinates in `order`.
  ///
  /// - Throws: ``CRSError`` naming the CRS PROJ does not know, or the pair it cannot join.
  public init(from source: String, to target: String, order: AxisOrder = .authority) throws(CRSError) {
    guard let context = proj_context_create() else {
      throw .noOperation(from: source, to: target, reason: "no PROJ context")
    }
    proj_log_level(context, PJ_LOG_NONE)
    for crs in [source, target] {
      guard let object = proj_create(context, crs) else {
        let message = String(cString: proj_context_errno_string(context, proj_context_errno(context)))
        proj_context_destroy(context)
        // PROJ says "Unknown error" for a code its database lacks.
        throw .unknownCRS(
          crs, reason: message.hasPrefix("Unknown error") ? "not in PROJ's database" : message)
      }
      proj_destroy(object)
    }
    guard var operation = proj_create_crs_to_crs(context, source, target, nil) else {
      let reason = String(cString: proj_context_errno_string(context, proj_context_errno(context)))
      proj_context_destroy(context)
      throw .noOperation(from: source, to: target, reason: reason)
    }
    if order == .eastingFirst {
      guard let normalized = proj_normalize_for_visualization(context, operation) else {
        proj_destroy(operation)
        proj_context_destroy(context)
        throw .noOperation(from: source, to: target, reason: "no easting-first form of the operation")
      }
      proj_destroy(operation)
      operation = normalized
    }
    self.context = context
    self.operation = operation
    self.source = source
    self.target = target
  }

  deinit {
    proj_destroy(operation)
    proj_context_destroy(context)
  }

  /// `values` (2 or 3 numbers in the source CRS's axis order) in the target CRS.
  ///
  /// - Throws: ``CRSError/untransformable(_:reason:)`` for a coordinate outside the
  ///   operation's domain or not finite.
  public func transform(_ values: [Double]) throws(CRSError) -> [Double] {
    guard (2...3).contains(values.count), values.allSatisfy(\.isFinite) else {
      throw .untransformable(values, reason: "expected 2 or 3 finite numbers")
    }
    proj_errno_reset(operation)
    let input = proj_coord(values[0], values[1], values.count == 3 ? values[2] : 0, .infinity)
    let output = proj_trans(operation, PJ_FWD, input)
    let out = [output.v.0, output.v.1, output.v.2]
    let error = proj_errno(operation)
    guard error == 0, out.allSatisfy(\.isFinite) else {
      let reason = error == 0 ? "outside the operation's domain" : String(cString: proj_errno_string(error))
      throw .untransformable(values, reason: reason)
    }
    return values.count == 3 ? out : Array(out.prefix(2))
  }
}

extension CoordinateOperation {
  /// A conversion from `crs` (easting first) to WGS84 latitude and longitude, degrees: what
  /// scene and places files placed in a national grid or UTM are read with (ARGeo's
  /// `CRSProjection`).
  /// - Throws: ``CRSError`` when PROJ does not know `crs`.
  public static func projectionToWGS84(_ crs: String) throws(CRSError) -> (Double, Double) throws -> (
    latitude: Double, longitude: Double
  ) {
    let operation = try CoordinateOperation(from: crs, to: "EPSG:4326", order: .eastingFirst)
    return { x, y in
      let lonLat = try operation.transform([x, y])
      return (lonLat[1], lonLat[0])
    }
  }
}
