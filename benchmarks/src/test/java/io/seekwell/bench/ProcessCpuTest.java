package io.seekwell.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProcessCpuTest {

  private static String stat(String name, long utime, long stime) {
    return "4711 ("
        + name
        + ") S 4700 4700 17552 0 -1 1077936192 12 0 0 0 "
        + utime
        + " "
        + stime
        + " 0 0 20 0 24 0 4032408 3133440 412\n";
  }

  @Test
  void aCompilerThreadCountsItsUserAndSystemTicks() {
    assertEquals(1_234 + 56, ProcessCpu.compilerTicks(stat("C2 CompilerThre", 1_234, 56)));
    assertEquals(7 + 1, ProcessCpu.compilerTicks(stat("C1 CompilerThre", 7, 1)));
  }

  @Test
  void otherThreadsCountNothingWhateverTheirNames() {
    assertEquals(0, ProcessCpu.compilerTicks(stat("GC Thread#0", 900, 9)));
    assertEquals(0, ProcessCpu.compilerTicks(stat("a (C2 CompilerThre) b", 900, 9)));
    assertEquals(0, ProcessCpu.compilerTicks(""));
  }

  @Test
  void thisJvmsCompilersHaveUsedSomeCpuOnLinux() {
    long compilers = ProcessCpu.compilerThreadsNanos();
    if (System.getProperty("os.name").startsWith("Linux")) {
      // HotSpot keeps one C1 and one C2 thread, and this JVM has compiled the test framework.
      assertTrue(compilers > 0 && compilers <= ProcessCpu.nanos(), String.valueOf(compilers));
    } else {
      assertEquals(-1, compilers);
    }
  }

  @Test
  void compilerCpuIsNotGivenWhereCompilerThreadsMayEnd() {
    if (ProcessCpu.dynamicCompilerThreads()) {
      assertEquals(-1, ProcessCpu.compilerNanos());
    } else {
      assertEquals(ProcessCpu.compilerThreadsNanos() > 0, ProcessCpu.compilerNanos() > 0);
    }
  }
}
