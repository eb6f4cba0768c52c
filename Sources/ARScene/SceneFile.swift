/// A scene file (JSON, schema in docs/scene.schema.json): what `arscene render` draws.
///
/// World frame per docs/CONVENTIONS.md: right-handed, +Y up, metres. Matrices are 16 numbers,
/// column-major; quaternions `[x, y, z, w]`; colours linear RGB in [0, 1]; paths relative to
/// the scene file.
public struct SceneFile: Codable, Sendable, Equatable {
  /// Output image size in pixels.
  public var output: Output
  /// What is behind the models: a colour or a camera frame.
  public var background: Background?
  /// The camera.
  public var camera: Camera
  /// The lights (defaults: soft ambient and one sun).
  public var lights: Lights?
  /// The models.
  public var objects: [Object]
  /// Where the scene is on Earth, for geo-anchored objects.
  public var geo: Geo?
  /// A shadow-catcher ground plane: the models' shadows darken what is behind it.
  public var shadow: Shadow?
  /// A film look over the finished frame, camera image and content alike: a shipped stock's
  /// name (`arscene film list`) or a preset file's path, relative to the scene file.
  public var film: String?
  /// Surveyed points and markers whose observations in a recording tell where the session truly
  /// was (`arscene validate`).
  public var controlPoints: [ControlPointEntry]? = nil

  enum CodingKeys: String, CodingKey {
    case output, background, camera, lights, objects, geo, shadow, film
    case controlPoints = "control_points"
  }

  /// The `shadow` field (ARRender's `ShadowCatcher` is what it resolves to): a ground plane
  /// that shows only the shadows the models cast on it from one directional light.
  public struct Shadow: Codable, Sendable, Equatable {
    /// The plane; default the plane a plane-anchored object stands on, else y = 0.
    public var plane: Plane?
    /// Index of the directional light casting the shadows (default 0, the first).
    public var light: Int?
    /// Darkness of full shadow, 0…1 (default 0.5).
    public var opacity: Float?
    /// Penumbra, metres: the Gaussian's standard deviation across the edge (default 0.02).
    public var softness: Double?
    /// Shadow-map texels along its longer side, 64…8192 (default 1024).
    public var resolution: Int?

    /// A plane through `point` (world metres) with `normal` (world, on the models' side).
    public struct Plane: Codable, Sendable, Equatable {
      /// A point on the plane, `[x, y, z]` world metres.
      public var point: [Double]
      /// The plane's normal, `[x, y, z]` world frame, towards the models (normalised on reading).
      public var normal: [Double]
    }
  }

  /// The scene's place on Earth. The scene's world frame is the AR session's: with the default
  /// alignment it is the ARKit gravity-and-heading frame at `origin` (x = east, y = up,
  /// z = south); `session_alignment` turns and shifts it as a session started with `.gravity`
  /// alignment would be.
  public struct Geo: Codable, Sendable, Equatable {
    /// The local ENU frame's origin (WGS84; height above the ellipsoid).
    public var origin: GeoPosition
    /// How the session's frame is turned and shifted from the ENU frame at `origin`.
    public var sessionAlignment: Alignment?

    /// The `session_alignment` field (ARGeo's `SessionAlignment` is what it resolves to).
    public struct Alignment: Codable, Sendable, Equatable {
      /// Compass heading of the session's −Z axis, degrees clockwise from north.
      public var yawDeg: Double?
      /// The session origin in ENU metres (east, north, up).
      public var originENU: [Double]?

      enum CodingKeys: String, CodingKey {
        case yawDeg = "yaw_deg"
        case originENU = "origin_enu"
      }
    }

    enum CodingKeys: String, CodingKey {
      case origin
      case sessionAlignment = "session_alignment"
    }
  }

  /// A WGS84 position: degrees, and metres above the ellipsoid (`height`) or above mean sea
  /// level (`altitude_msl`, turned into a height with the EGM96 geoid); neither means height 0.
  public struct GeoPosition: Codable, Sendable, Equatable {
    /// Degrees north, −90…90.
    public var latitude: Double
    /// Degrees east, −180…180.
    public var longitude: Double
    /// Metres above the WGS84 ellipsoid.
    public var height: Double?
    /// Metres above mean sea level (`altitude_msl`), turned into a height with the EGM96 geoid. Give
    /// this or ``height``, not both.
    public var altitudeMSL: Double?

    enum CodingKeys: String, CodingKey {
      case latitude, longitude, height, altitudeMSL = "altitude_msl"
    }
  }

  /// What an object is attached to; its `transform` then applies in the anchor's frame.
  public struct Anchor: Codable, Sendable, Equatable {
    /// A geo-anchor: a position and the compass heading of the anchor's −Z axis.
    public var geo: GeoLocation?
    /// A square marker seen by the scene's camera: its side and its four corners in output
    /// pixels (IPPE_SQUARE order). The anchor frame is the marker's: x right, y up, z out of it.
    public var marker: MarkerAnchor?
    /// A plane detected in a point cloud (world metres): the object stands on it at the plane's
    /// centre (or `position`), +Y along the plane's normal.
    public var plane: PlaneAnchor?

    /// The `marker` field of an anchor.
    public struct MarkerAnchor: Codable, Sendable, Equatable {
      /// The marker's black square's side, metres.
      public var size: Double
      /// Its four corners in output pixels, `[x0, y0, …, x3, y3]` (IPPE_SQUARE order: top-left,
      /// top-right, bottom-right, bottom-left).
      public var corners: [Double]
    }

    /// The `plane` field of an anchor.
    public struct PlaneAnchor: Codable, Sendable, Equatable {
      /// The .ply or .xyz file, relative to the scene file.
      public var points: String
      /// Inlier distance, metres (default 0.01).
      public var threshold: Double?
      /// Which plane: `largest`, `horizontal` (largest horizontal, the default) or `vertical`.
      public var select: String?
      /// Where on the plane (world metres; projected onto it); default the plane's extent centre.
      public var position: [Double]?
    }

    /// The `geo` field (ARGeo's `GeoAnchor` is what it resolves to).
    public struct GeoLocation: Codable, Sendable, Equatable {
      /// Degrees north, −90…90.
      public var latitude: Double
      /// Degrees east, −180…180.
      public var longitude: Double
      /// Metres above the ellipsoid.
      public var height: Double?
      /// Metres above mean sea level, as surveys and phones give heights: turned into a height
      /// above the ellipsoid with the EGM96 geoid. Give this or ``height``, not both.
      public var altitudeMSL: Double?
      /// Compass heading of the anchor's −Z axis, degrees clockwise from north.
      public var headingDeg: Double?

      enum CodingKeys: String, CodingKey {
        case latitude, longitude, height, altitudeMSL = "altitude_msl"
        case headingDeg = "heading_deg"
      }
    }
  }

  /// The `output` field: the rendered image's size.
  public struct Output: Codable, Sendable, Equatable {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int
  }

  /// The `background` field: a colour, or a camera frame the content is drawn over.
  public struct Background: Codable, Sendable, Equatable {
    /// Linear RGB colour.
    public var color: [Float]?
    /// A PNG or JPEG camera frame: the image the camera's intrinsics refer to, so it must have
    /// the output's size (unless `resample`).
    public var image: String?
    /// Scale a camera frame of another size to the output (bilinear); without it a size that
    /// disagrees with the intrinsics is an error, never a silently shifted picture.
    public var resample: Bool?
  }

  /// Either `intrinsics` or `vertical_fov_deg`; either `world_from_camera` or `look_at`.
  public struct Camera: Codable, Sendable, Equatable {
    /// The pinhole intrinsics, pixels, for the output's size.
    public var intrinsics: Intrinsics?
    /// Instead of `intrinsics`: a centred camera's full vertical angle of view, degrees
    /// (`vertical_fov_deg`).
    public var verticalFovDeg: Double?
    /// Camera pose, ARKit convention (looks down −Z), 16 numbers column-major.
    public var worldFromCamera: [Double]?
    /// Instead of `world_from_camera`: where the camera is and what it looks at (`look_at`).
    public var lookAt: LookAt?
    /// Near and far planes in metres.
    public var near: Double?
    /// The far plane, metres (see ``near``).
    public var far: Double?
    /// The lens's OpenCV distortion coefficients `[k1, k2, p1, p2(, k3(, k4, k5, k6))]`, or a
    /// fisheye's `[k1, k2, k3, k4]` (Kannala-Brandt): the scene is rendered as that lens shows it.
    public var distortion: [Double]?
    /// A fisheye lens's `[k1, k2, k3, k4]` instead (see ``distortion``).
    public var fisheye: [Double]?

    enum CodingKeys: String, CodingKey {
      case intrinsics, near, far, distortion, fisheye
      case verticalFovDeg = "vertical_fov_deg"
      case worldFromCamera = "world_from_camera"
      case lookAt = "look_at"
    }
  }

  /// Pinhole intrinsics in pixels for the output size (top-left origin, centres at +0.5).
  public struct Intrinsics: Codable, Sendable, Equatable {
    /// Focal length along x, pixels.
    public var fx: Double
    /// Focal length along y, pixels.
    public var fy: Double
    /// Principal point x, pixels from the left edge.
    public var cx: Double
    /// Principal point y, pixels from the top edge.
    public var cy: Double
  }

  /// The `look_at` field: a camera at `eye` looking at `target`, world metres.
  public struct LookAt: Codable, Sendable, Equatable {
    /// The camera's position, `[x, y, z]` world metres.
    public var eye: [Double]
    /// The point it looks at, `[x, y, z]` world metres.
    public var target: [Double]
    /// The world direction that is up in the image (default +Y).
    public var up: [Double]?
  }

  /// The `lights` field.
  public struct Lights: Codable, Sendable, Equatable {
    /// Linear RGB ambient light.
    public var ambient: [Float]?
    /// Lights from infinitely far away, as the sun.
    public var directional: [Directional]?
    /// Lights at a point in the world.
    public var point: [Point]?

    /// A directional light.
    public struct Directional: Codable, Sendable, Equatable {
      /// The way the light travels (from the light into the scene), world frame.
      public var direction: [Float]
      /// Linear RGB colour (default white).
      public var color: [Float]?
      /// A factor on the colour (default 1).
      public var intensity: Float?
    }

    /// A point light.
    public struct Point: Codable, Sendable, Equatable {
      /// Where it is, `[x, y, z]` world metres.
      public var position: [Float]
      /// Linear RGB colour (default white).
      public var color: [Float]?
      /// A factor on the colour (default 1).
      public var intensity: Float?
    }
  }

  /// A model placed in the world: by `world_from_model`, or by `transform`, or at the origin;
  /// or attached to an `anchor`, with `transform` relative to it.
  public struct Object: Codable, Sendable, Equatable {
    /// The object's name: what hit-tests and labels report.
    public var name: String?
    /// The model file (OBJ, glTF, GLB, USDZ, USDA or USDC), relative to the scene file.
    public var model: String
    /// The model's pose, 16 numbers column-major (`world_from_model`), metres.
    public var worldFromModel: [Float]?
    /// The model's pose as parts, in the world or the anchor's frame.
    public var transform: Transform?
    /// What the object is attached to.
    public var anchor: Anchor?
    /// Named points on this model (a point file), drawn as spheres and used as tap targets.
    public var points: Points?
    /// Skip faces pointing away from the camera (default true).
    public var cullBackFaces: Bool?
    /// A label over the object, facing the screen: its name and distance, as AR guides show
    /// points of interest.
    public var label: Label?
    /// The CRS the model's vertices are coordinates in (`EPSG:32633`: x easting, y northing, z
    /// height above the ellipsoid, metres): the model is placed by them through the scene's
    /// `geo` (a survey's site model), with no anchor or transform.
    public var crs: String?

    enum CodingKeys: String, CodingKey {
      case name, model, transform, anchor, points, label, crs
      case worldFromModel = "world_from_model"
      case cullBackFaces = "cull_back_faces"
    }
  }

  /// The `label` field: what a label says and where its pointer ends.
  public struct Label: Codable, Sendable, Equatable {
    /// The label's text (default: the object's `name`).
    public var text: String?
    /// Metres above the object's origin (world up) where the label's pointer ends (default:
    /// a little above the model's top).
    public var height: Double?
    /// Add the camera's distance to the object's origin, "· 42 m" (default true).
    public var distance: Bool?
  }

  /// The object's named points in its model frame: a point file (docs/points.schema.json), or
  /// the model's own marked points (a glTF's named empty nodes), and how to draw them.
  public struct Points: Codable, Sendable, Equatable {
    /// The file, relative to the scene file.
    public var file: String?
    /// Take the model's named empty nodes (glTF) as the points instead of a file.
    public var fromModel: Bool?
    /// The points' radius with `from_model`, metres.
    public var radius: Double?
    /// Linear RGB colour of the markers (default a strong red).
    public var color: [Float]?

    enum CodingKeys: String, CodingKey {
      case file, radius, color
      case fromModel = "from_model"
    }
  }

  /// Translation (metres), rotation (`[x, y, z, w]`) or yaw (degrees about +Y), and scale.
  public struct Transform: Codable, Sendable, Equatable {
    /// `[x, y, z]`, metres.
    public var translation: [Float]?
    /// A unit quaternion `[x, y, z, w]` (`rotation_xyzw`).
    public var rotationXYZW: [Float]?
    /// Instead of a rotation: degrees about +Y, counter-clockwise seen from above (`yaw_deg`).
    public var yawDeg: Float?
    /// `[x, y, z]` factors along the model's axes (default 1).
    public var scale: [Float]?

    enum CodingKeys: String, CodingKey {
      case translation, scale
      case rotationXYZW = "rotation_xyzw"
      case yawDeg = "yaw_deg"
    }
  }
}
