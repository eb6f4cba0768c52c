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

  public struct Output: Codable, Sendable, Equatable {
    public var width: Int
    public var height: Int
  }

  public struct Background: Codable, Sendable, Equatable {
    /// Linear RGB colour.
    public var color: [Float]?
    /// A PNG or JPEG camera frame, scaled to the output size if needed.
    public var image: String?
  }

  /// Either `intrinsics` or `vertical_fov_deg`; either `world_from_camera` or `look_at`.
  public struct Camera: Codable, Sendable, Equatable {
    public var intrinsics: Intrinsics?
    public var verticalFovDeg: Float?
    /// Camera pose, ARKit convention (looks down −Z), 16 numbers column-major.
    public var worldFromCamera: [Float]?
    public var lookAt: LookAt?
    /// Near and far planes in metres.
    public var near: Float?
    public var far: Float?

    enum CodingKeys: String, CodingKey {
      case intrinsics, near, far
      case verticalFovDeg = "vertical_fov_deg"
      case worldFromCamera = "world_from_camera"
      case lookAt = "look_at"
    }
  }

  /// Pinhole intrinsics in pixels for the output size (top-left origin, centres at +0.5).
  public struct Intrinsics: Codable, Sendable, Equatable {
    public var fx: Float
    public var fy: Float
    public var cx: Float
    public var cy: Float
  }

  public struct LookAt: Codable, Sendable, Equatable {
    public var eye: [Float]
    public var target: [Float]
    public var up: [Float]?
  }

  public struct Lights: Codable, Sendable, Equatable {
    /// Linear RGB ambient light.
    public var ambient: [Float]?
    public var directional: [Directional]?
    public var point: [Point]?

    public struct Directional: Codable, Sendable, Equatable {
      /// The way the light travels (from the light into the scene), world frame.
      public var direction: [Float]
      public var color: [Float]?
      public var intensity: Float?
    }

    public struct Point: Codable, Sendable, Equatable {
      public var position: [Float]
      public var color: [Float]?
      public var intensity: Float?
    }
  }

  /// A model placed in the world: by `world_from_model`, or by `transform`, or at the origin.
  /// (Geo, plane and marker anchors join as the geo and pose modules land: `anchor` is reserved.)
  public struct Object: Codable, Sendable, Equatable {
    public var name: String?
    /// OBJ file, relative to the scene file.
    public var model: String
    public var worldFromModel: [Float]?
    public var transform: Transform?
    /// Skip faces pointing away from the camera (default true).
    public var cullBackFaces: Bool?

    enum CodingKeys: String, CodingKey {
      case name, model, transform
      case worldFromModel = "world_from_model"
      case cullBackFaces = "cull_back_faces"
    }
  }

  /// Translation (metres), rotation (`[x, y, z, w]`) or yaw (degrees about +Y), and scale.
  public struct Transform: Codable, Sendable, Equatable {
    public var translation: [Float]?
    public var rotationXYZW: [Float]?
    public var yawDeg: Float?
    public var scale: [Float]?

    enum CodingKeys: String, CodingKey {
      case translation, scale
      case rotationXYZW = "rotation_xyzw"
      case yawDeg = "yaw_deg"
    }
  }
}
