package io.seekwell.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Finds a MinIO binary: {@code MINIO_BIN}, the project's tool cache, then {@code PATH}. */
final class MinioBinary {

  private static final String TOOL_CACHE_PROPERTY = "seekwell.tools.dir";

  private MinioBinary() {}

  static Optional<Path> locate(Map<String, String> env) {
    String explicit = env.get("MINIO_BIN");
    if (explicit != null && !explicit.isBlank()) {
      Path path = Path.of(explicit);
      if (!Files.isExecutable(path)) {
        throw new IllegalStateException("MINIO_BIN=" + explicit + " is not an executable file");
      }
      return Optional.of(path);
    }
    return fromToolCache().or(() -> fromPath(env.get("PATH")));
  }

  private static Optional<Path> fromToolCache() {
    String configured = System.getProperty(TOOL_CACHE_PROPERTY);
    if (configured != null && !configured.isBlank()) {
      return executable(Path.of(configured, "bin", "minio"));
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Optional<Path> candidate = executable(dir.resolve(".tools/bin/minio"));
      if (candidate.isPresent()) {
        return candidate;
      }
    }
    return Optional.empty();
  }

  private static Optional<Path> fromPath(String path) {
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      Optional<Path> candidate = executable(Path.of(dir, "minio"));
      if (candidate.isPresent()) {
        return candidate;
      }
    }
    return Optional.empty();
  }

  private static Optional<Path> executable(Path path) {
    return Files.isRegularFile(path) && Files.isExecutable(path)
        ? Optional.of(path)
        : Optional.empty();
  }
}
