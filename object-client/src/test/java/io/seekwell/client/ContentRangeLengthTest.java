package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The object's length read from a GET response's {@code Content-Range}. */
class ContentRangeLengthTest {

  @Test
  void aRangeWithItsTotalGivesTheObjectsLength() {
    assertEquals(OptionalLong.of(1000), SdkCalls.objectLength("bytes 0-499/1000"));
    assertEquals(OptionalLong.of(1), SdkCalls.objectLength("bytes 0-0/1"));
    assertEquals(OptionalLong.of(5_000_000_000L), SdkCalls.objectLength("bytes 10-20/5000000000"));
  }

  @Test
  void noHeaderAnUnknownTotalOrAMalformedOneGiveNothing() {
    for (String header :
        new String[] {
          null,
          "",
          "bytes 0-499/*",
          "bytes 0-499",
          "bytes 0-499/",
          "bytes 0-1/x1",
          "bytes 0-1/-5",
          "bytes 0-1/\u0661\u0662",
          "bytes 0-1/99999999999999999999"
        }) {
      assertEquals(OptionalLong.empty(), SdkCalls.objectLength(header), header);
    }
  }
}
