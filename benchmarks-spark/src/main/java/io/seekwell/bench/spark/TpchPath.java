package io.seekwell.bench.spark;

import java.util.Arrays;
import java.util.Map;

/**
 * A read path of the TPC-H benchmark: the table format Spark reads (Iceberg tables of a catalog, or
 * Parquet directories over S3A) and the settings that choose the stream, each as its docs tell
 * users to set it. Immutable.
 */
enum TpchPath {
  ICEBERG_DEFAULT("iceberg-default", true, Map.of("io-impl", "org.apache.iceberg.aws.s3.S3FileIO")),
  ICEBERG_AAL(
      "iceberg-aal",
      true,
      Map.of(
          "io-impl",
          "org.apache.iceberg.aws.s3.S3FileIO",
          "s3.analytics-accelerator.enabled",
          "true")),
  SEEKWELL_ICEBERG(
      "seekwell-iceberg", true, Map.of("io-impl", "io.seekwell.iceberg.SeekwellS3FileIO")),
  S3A_CLASSIC("s3a-classic", false, Map.of("fs.s3a.input.stream.type", "classic")),
  S3A_ANALYTICS("s3a-analytics", false, Map.of("fs.s3a.input.stream.type", "analytics")),
  SEEKWELL_S3A(
      "seekwell-s3a",
      false,
      Map.of(
          "fs.s3a.input.stream.type",
          "custom",
          "fs.s3a.input.stream.custom.factory",
          "io.seekwell.hadoop.SeekwellStreamFactory"));

  private final String label;
  private final boolean iceberg;
  private final Map<String, String> settings;

  TpchPath(String label, boolean iceberg, Map<String, String> settings) {
    this.label = label;
    this.iceberg = iceberg;
    this.settings = settings;
  }

  /** The path's name in options and reports, such as {@code seekwell-iceberg}. */
  String label() {
    return label;
  }

  /** Whether the path reads through Seekwell, which takes the {@code --seekwell} settings. */
  boolean seekwell() {
    return label.startsWith("seekwell");
  }

  /** Whether Spark reads Iceberg tables (catalog properties) rather than Parquet over S3A. */
  boolean iceberg() {
    return iceberg;
  }

  /**
   * The path's settings: catalog properties for an Iceberg path, Hadoop properties for an S3A one.
   */
  Map<String, String> settings() {
    return settings;
  }

  /** The path named {@code label}. */
  static TpchPath of(String label) {
    return Arrays.stream(values())
        .filter(path -> path.label.equals(label))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "Unknown path: "
                        + label
                        + "; the paths are "
                        + Arrays.stream(values()).map(TpchPath::label).toList()));
  }
}
