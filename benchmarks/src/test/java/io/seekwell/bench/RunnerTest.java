package io.seekwell.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunnerTest {

  @Test
  void warmsUpThenMeasuresEveryPathEveryRoundInRotatedOrder() throws Exception {
    List<String> calls = new ArrayList<>();
    Map<String, List<String>> measured =
        new Runner(List.of("a", "b", "c"), 1, 2, Runner.Order.ROTATED)
            .run(
                (path, round) -> {
                  calls.add(path + round);
                  return path + round;
                });
    assertEquals(List.of("a0", "b0", "c0", "b1", "c1", "a1", "c2", "a2", "b2"), calls);
    assertEquals(
        Map.of("a", List.of("a1", "a2"), "b", List.of("b1", "b2"), "c", List.of("c1", "c2")),
        measured);
    assertEquals(List.of("a", "b", "c"), List.copyOf(measured.keySet()));
  }

  @Test
  void aPathThatFailsIsToldAndMeasuredNoMore() throws Exception {
    List<String> failed = new ArrayList<>();
    List<String> calls = new ArrayList<>();
    Map<String, List<Integer>> measured =
        new Runner(List.of("a", "b"), 0, 3, Runner.Order.AS_GIVEN)
            .run(
                (path, round) -> {
                  calls.add(path + round);
                  if (path.equals("b") && round == 2) {
                    throw new IOException("cut");
                  }
                  return round;
                },
                (path, error) -> failed.add(path + ": " + error.getMessage()));
    assertEquals(List.of("a1", "b1", "a2", "b2", "a3"), calls);
    assertEquals(List.of("b: cut"), failed);
    assertEquals(Map.of("a", List.of(1, 2, 3)), measured);
  }

  @Test
  void withoutAFailureListenerAFailureEndsTheRun() {
    Runner runner = new Runner(List.of("a"), 0, 1, Runner.Order.AS_GIVEN);
    assertThrows(
        IOException.class,
        () ->
            runner.run(
                (path, round) -> {
                  throw new IOException("cut");
                }));
  }
}
