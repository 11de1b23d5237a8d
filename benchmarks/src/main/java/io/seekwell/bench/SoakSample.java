package io.seekwell.bench;

/**
 * One interval of the soak benchmark: when, what the process held, what the read paths held, and
 * the reads so far.
 */
record SoakSample(
    double minutes,
    ProcessResources process,
    int connections,
    long diskBytes,
    long cachedBytes,
    long reads,
    long wrong,
    long failed,
    long gets) {

  private static final double MB = 1e6;

  /** The resources the benchmark requires to stay flat, by name, as numbers. */
  enum Resource {
    HEAP("heap MB") {
      @Override
      double of(SoakSample sample) {
        return sample.process().heapBytes() / MB;
      }
    },
    DIRECT("direct and mapped MB") {
      @Override
      double of(SoakSample sample) {
        return sample.process().directBytes() / MB;
      }
    },
    RESIDENT("RSS MB") {
      @Override
      double of(SoakSample sample) {
        return sample.process().residentBytes() / MB;
      }
    },
    THREADS("threads") {
      @Override
      double of(SoakSample sample) {
        return sample.process().threads();
      }
    },
    FILES("open files") {
      @Override
      double of(SoakSample sample) {
        return sample.process().openFiles();
      }
    },
    CONNECTIONS("connections") {
      @Override
      double of(SoakSample sample) {
        return sample.connections();
      }
    },
    DISK("disk tier MB") {
      @Override
      double of(SoakSample sample) {
        return sample.diskBytes() / MB;
      }
    },
    CACHED("cached MB") {
      @Override
      double of(SoakSample sample) {
        return sample.cachedBytes() / MB;
      }
    };

    final String label;

    Resource(String label) {
      this.label = label;
    }

    abstract double of(SoakSample sample);
  }
}
