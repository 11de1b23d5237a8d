package io.seekwell.bench.paths;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * An ORC file as a read path serves it to ORC's reader: the file system to open it through, its
 * path there and length, and the reader's settings.
 */
public record OrcInput(FileSystem fs, Path path, long length, Configuration conf) {}
