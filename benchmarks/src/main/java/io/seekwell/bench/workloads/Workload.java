package io.seekwell.bench.workloads;

import io.seekwell.bench.paths.ReadPath;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;
import java.util.zip.CRC32;
import org.apache.parquet.io.InputFile;

/**
 * The benchmark's workloads; each returns a checksum so paths can be checked against each other.
 */
public enum Workload {
  W1("Parquet projection: 3 of 20 columns of the wide table") {
    @Override
    public long run(ReadPath path, Dataset data) throws IOException {
      return ParquetProjection.scan(
          path.parquetFile(data.table, data.length(data.table)), PROJECTION);
    }
  },
  W2("Parquet full scan of the wide table") {
    @Override
    public long run(ReadPath path, Dataset data) throws IOException {
      return ParquetProjection.scan(path.parquetFile(data.table, data.length(data.table)), ALL);
    }
  },
  W3("small Parquet files read whole") {
    @Override
    public long run(ReadPath path, Dataset data) throws IOException {
      long checksum = 0;
      for (String key : data.smallTables) {
        checksum =
            checksum * 31 + ParquetProjection.scan(path.parquetFile(key, data.length(key)), ALL);
      }
      return checksum;
    }
  },
  W4("footer-only opens of the small files") {
    @Override
    public long run(ReadPath path, Dataset data) throws IOException {
      long rows = 0;
      for (String key : data.smallTables) {
        rows += ParquetProjection.footerRows(path.parquetFile(key, data.length(key)));
      }
      return rows;
    }
  },
  W5("sequential read of the raw file in 64 KiB reads") {
    @Override
    public long run(ReadPath path, Dataset data) throws IOException {
      CRC32 crc = new CRC32();
      byte[] buffer = new byte[64 * 1024];
      try (ReadPath.PositionalReader reader = path.open(data.raw, data.length(data.raw))) {
        int n;
        while ((n = reader.read(buffer, 0, buffer.length)) > 0) {
          crc.update(buffer, 0, n);
        }
      }
      return crc.getValue();
    }
  },
  W6("200 random 4 KiB reads of the raw file") {
    @Override
    public long run(ReadPath path, Dataset data) throws IOException {
      long length = data.length(data.raw);
      SplittableRandom random = new SplittableRandom(42);
      CRC32 crc = new CRC32();
      byte[] buffer = new byte[4096];
      try (ReadPath.PositionalReader reader = path.open(data.raw, length)) {
        for (int i = 0; i < 200; i++) {
          reader.seek(random.nextLong(length - buffer.length));
          int done = 0;
          while (done < buffer.length) {
            done += reader.read(buffer, done, buffer.length - done);
          }
          crc.update(buffer);
        }
      }
      return crc.getValue();
    }
  },
  W7("16 concurrent streams: 8 projections (W1) and 8 sequential reads (W5)") {
    @Override
    public long run(ReadPath path, Dataset data) throws IOException {
      List<Callable<Long>> streams = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        Workload workload = i % 2 == 0 ? W1 : W5;
        streams.add(() -> workload.run(path, data));
      }
      return inParallel(this, streams);
    }
  },
  W8("the wide table opened 5 times: 4 footer reads, then the projection") {
    @Override
    public long run(ReadPath path, Dataset data) throws IOException {
      long checksum = 0;
      for (int i = 0; i < 4; i++) {
        checksum +=
            ParquetProjection.footerRows(path.parquetFile(data.table, data.length(data.table)));
      }
      return checksum * 31 + W1.run(path, data);
    }
  },
  W9("a task group: the small files named first, then each read whole in order") {
    @Override
    public long run(ReadPath path, Dataset data) throws IOException {
      long checksum = 0;
      try (ReadPath.Task task = path.task(data.smallTables, data::length)) {
        for (InputFile file : task.files()) {
          checksum = checksum * 31 + ParquetProjection.scan(file, ALL);
        }
      }
      return checksum;
    }
  },
  W10("ORC: all 128 columns of the ORC table") {
    @Override
    public long run(ReadPath path, Dataset data) throws IOException {
      return OrcTable.scan(path.orcFile(data.orcTable, data.length(data.orcTable)), OrcTable.ALL);
    }
  },
  W11("ORC: alternate columns of the ORC table") {
    @Override
    public long run(ReadPath path, Dataset data) throws IOException {
      return OrcTable.scan(
          path.orcFile(data.orcTable, data.length(data.orcTable)), OrcTable.ALTERNATE);
    }
  },
  W12("ORC: 3 of the ORC table's 128 columns") {
    @Override
    public long run(ReadPath path, Dataset data) throws IOException {
      return OrcTable.scan(path.orcFile(data.orcTable, data.length(data.orcTable)), OrcTable.THREE);
    }
  },
  W13("parallel projections: W1's columns in 2 streams, each of half the row groups") {
    @Override
    public long run(ReadPath path, Dataset data) throws IOException {
      long length = data.length(data.table);
      List<Callable<Long>> splits = new ArrayList<>();
      for (int split = 0; split < SPLITS; split++) {
        long start = length * split / SPLITS;
        long end = length * (split + 1) / SPLITS;
        splits.add(
            () ->
                ParquetProjection.scan(
                    path.parquetFile(data.table, length), PROJECTION, start, end));
      }
      return inParallel(this, splits);
    }
  };

  /** How many streams W13 splits the wide table's row groups among, as an engine's tasks do. */
  private static final int SPLITS = 2;

  /** The columns W1 reads. */
  static final List<String> PROJECTION = List.of("m3", "m8", "m15");

  /** Every column but the id. */
  public static final List<String> ALL =
      IntStream.range(1, SampleTable.COLUMNS).mapToObj(i -> "m" + i).toList();

  public final String description;

  /** Runs {@code streams} at once, each on a thread of its own; a checksum of their checksums. */
  private static long inParallel(Workload workload, List<Callable<Long>> streams)
      throws IOException {
    ExecutorService pool = Executors.newFixedThreadPool(streams.size());
    try {
      List<Future<Long>> runs = new ArrayList<>();
      for (Callable<Long> stream : streams) {
        runs.add(pool.submit(stream));
      }
      long checksum = 0;
      for (Future<Long> run : runs) {
        checksum = checksum * 31 + run.get(30, TimeUnit.MINUTES);
      }
      return checksum;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while running " + workload);
    } catch (ExecutionException | TimeoutException e) {
      throw new IOException(workload + " failed", e);
    } finally {
      pool.shutdownNow();
    }
  }

  Workload(String description) {
    this.description = description;
  }

  public abstract long run(ReadPath path, Dataset data) throws IOException;

  /** Whether the workload reads the ORC table. */
  public boolean orc() {
    return this == W10 || this == W11 || this == W12;
  }
}
