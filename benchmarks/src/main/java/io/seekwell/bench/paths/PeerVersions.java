package io.seekwell.bench.paths;

import org.apache.hadoop.util.VersionInfo;
import org.apache.iceberg.IcebergBuild;

/** The versions of the peers' libraries on the benchmark's class path, as the reports name them. */
public final class PeerVersions {

  private PeerVersions() {}

  /** Iceberg's release, as its build says ({@code 1.12.0}). */
  public static String iceberg() {
    return IcebergBuild.version();
  }

  /** Hadoop's release, hadoop-aws's with it ({@code 3.5.0}). */
  public static String hadoop() {
    return VersionInfo.getVersion();
  }
}
