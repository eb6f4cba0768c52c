import ARMath
import RealModule

/// The reprojection residuals of a board calibration (``CameraCalibration``) and their
/// Jacobian: the free camera parameters (of `fx, fy, cx, cy, k1, k2, p1, p2, k3`, in that
/// order), then each view's rotation (axis times angle) and translation; residuals `(u − u_seen, v − v_seen)` point by point, view by
/// view, pixels.
struct CalibrationResiduals {
  let views: [CameraCalibration.View]
  /// The camera parameters estimated and those held.
  let parameters: CalibrationParameters
  /// Where each view's residuals start.
  private let offsets: [Int]
  private let count: Int

  init(views: [CameraCalibration.View], parameters: CalibrationParameters) {
    self.views = views
    self.parameters = parameters
    var offsets: [Int] = [], total = 0
    for view in views {
      offsets.append(total)
      total += 2 * view.boardPoints.count
    }
    (self.offsets, count) = (offsets, total)
  }

  /// View `v`'s six parameters in `x`.
  func viewParameters(_ x: [Double], _ v: Int) -> ArraySlice<Double> {
    let start = parameters.count + 6 * v
    return x[start..<(start + 6)]
  }

  func residuals(_ x: [Double]) -> [Double] {
    var r = [Double](repeating: 0, count: count)
    for v in views.indices { viewResiduals(x, v, into: &r) }
    return r
  }

  /// View `v`'s residuals written at its offset in `r`.
  private func viewResiduals(_ x: [Double], _ v: Int, into r: inout [Double]) {
    let camera = parameters.camera(x)
    let lens = LensDistortion.radialTangential(
      k1: camera[4], k2: camera[5], p1: camera[6], p2: camera[7], k3: camera[8], k4: 0, k5: 0, k6: 0)
    let p = viewParameters(x, v), s = p.startIndex
    let rotation = CameraCalibration.rotation(SIMD3(p[s], p[s + 1], p[s + 2])).matrix
    let translation = SIMD3(p[s + 3], p[s + 4], p[s + 5])
    let view = views[v]
    var k = offsets[v]
    for (board, seen) in zip(view.boardPoints, view.imagePoints) {
      let c = rotation * SIMD3(board.x, board.y, 0) + translation
      let d = lens.distort(SIMD2(c.x / c.z, c.y / c.z))
      r[k] = camera[0] * d.x + camera[2] - seen.x
      r[k + 1] = camera[1] * d.y + camera[3] - seen.y
      k += 2
    }
  }

  /// Central differences, each view's parameters moving its own residuals alone: each free
  /// camera column costs two evaluations of every residual, a view's six two of its own.
  func jacobian(_ x: [Double]) -> DenseMatrix<Double> {
    var j = DenseMatrix<Double>(rows: count, columns: x.count)
    let base = Double.root(Double.ulpOfOne, 3)
    var plus = [Double](repeating: 0, count: count), minus = plus
    for c in 0..<parameters.count {
      let h = base * Swift.max(1, abs(x[c]))
      var xp = x, xm = x
      xp[c] += h
      xm[c] -= h
      plus = residuals(xp)
      minus = residuals(xm)
      for r in 0..<count { j[r, c] = (plus[r] - minus[r]) / (2 * h) }
    }
    for v in views.indices {
      let rows = offsets[v]..<(offsets[v] + 2 * views[v].boardPoints.count)
      for c in (parameters.count + 6 * v)..<(parameters.count + 6 * v + 6) {
        let h = base * Swift.max(1, abs(x[c]))
        var xp = x, xm = x
        xp[c] += h
        xm[c] -= h
        viewResiduals(xp, v, into: &plus)
        viewResiduals(xm, v, into: &minus)
        for r in rows { j[r, c] = (plus[r] - minus[r]) / (2 * h) }
      }
    }
    return j
  }
}
