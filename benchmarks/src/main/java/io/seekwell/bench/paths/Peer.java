package io.seekwell.bench.paths;

import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.bench.store.Clients;
import io.seekwell.bench.store.RequestCounter;
import io.seekwell.bench.store.Store;
import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The read paths the benchmarks measure, Seekwell's and its peers', each by the name the command
 * line and the reports spell it: the stack it reads through, whether it is Seekwell's, and how to
 * open it fresh, over clients a {@link RequestCounter} counts, reading {@link Store#BUCKET}. What
 * the reports need to compare them follows from that: a Seekwell path is compared with the other
 * paths of its stack ({@link #peers}), and a connector with its stack's default stream ({@link
 * #stackDefault}). A new peer is a constant here (and a {@link ReadPath} class if it reads through
 * a library none of these reads through). Immutable.
 */
public enum Peer {

  /** Seekwell's own factory over a Netty async client. */
  SEEKWELL(
      "seekwell",
      Stack.STREAM,
      Role.SEEKWELL,
      opening -> new SeekwellPath(opening.async(), Store.BUCKET, opening.configuration())),

  /** The same over the CRT client, with Seekwell's CRT settings. */
  SEEKWELL_CRT(
      "seekwell-crt",
      Stack.STREAM,
      Role.SEEKWELL,
      opening -> new SeekwellPath(opening.crt(), Store.BUCKET, opening.configuration())),

  /** The AWS Analytics Accelerator Library with its defaults, on a Netty async client. */
  AAL("aal", Stack.STREAM, Role.PEER, opening -> new AalPath(opening.async(), Store.BUCKET)),

  /** Iceberg's {@code S3FileIO} with its own stream. */
  ICEBERG_DEFAULT(
      "iceberg-default",
      Stack.ICEBERG,
      Role.STACK_DEFAULT,
      opening -> new IcebergPath(opening.sync(), Store.BUCKET, Optional.empty())),

  /** Seekwell's FileIO for Iceberg, given the settings as {@code seekwell.*} properties. */
  SEEKWELL_ICEBERG(
      "seekwell-iceberg",
      Stack.ICEBERG,
      Role.SEEKWELL,
      opening -> new IcebergPath(opening.sync(), Store.BUCKET, Optional.of(opening.seekwell()))),

  /** S3A's classic stream. */
  S3A_CLASSIC(
      "s3a-classic", Stack.S3A, Role.PEER, opening -> opening.s3a(S3aPath.Stream.classic(), 0)),

  /** S3A's analytics stream (AAL), hadoop-aws 3.5.0's default. */
  S3A_ANALYTICS(
      "s3a-analytics",
      Stack.S3A,
      Role.STACK_DEFAULT,
      opening -> opening.s3a(S3aPath.Stream.analytics(), 0)),

  /**
   * S3A's classic stream with ORC's reader merging reads less than 4 MiB apart ({@code
   * orc.min.disk.seek.size}): measured in the ORC workloads only, where it differs from {@code
   * s3a-classic}.
   */
  S3A_CLASSIC_ORC_TUNED(
      "s3a-classic-orc-tuned",
      Stack.S3A,
      Role.PEER,
      opening -> opening.s3a(S3aPath.Stream.classic(), S3aPath.ORC_TUNED_SEEK_SIZE)) {
    @Override
    public boolean orcOnly() {
      return true;
    }
  },

  /** Seekwell's S3A stream factory, given the settings as {@code fs.s3a.seekwell.*}. */
  SEEKWELL_S3A(
      "seekwell-s3a",
      Stack.S3A,
      Role.SEEKWELL,
      opening -> opening.s3a(S3aPath.Stream.seekwell(opening.seekwell()), 0));

  /** What an application reads through, the stack a Seekwell path replaces a stream in. */
  public enum Stack {
    /** A stream library used as it is: Seekwell's factory, AAL's. */
    STREAM,
    /** Iceberg's FileIO. */
    ICEBERG,
    /** Hadoop S3A's input streams. */
    S3A;

    /** Seekwell's path in this stack: the first, where several read through it. */
    public Peer seekwell() {
      return paths(this).filter(Peer::isSeekwell).findFirst().orElseThrow();
    }

    /** The stream the stack reads with when Seekwell is not plugged in, if it has one. */
    private Optional<Peer> defaultStream() {
      return paths(this).filter(peer -> peer.role == Role.STACK_DEFAULT).findFirst();
    }
  }

  /** What a path is to the others of its stack. */
  private enum Role {
    /** One of Seekwell's paths. */
    SEEKWELL,
    /** The stack's own stream, which it reads with by default. */
    STACK_DEFAULT,
    /** Another peer in the stack. */
    PEER
  }

  /** What a path is opened with: the store, the counter of its requests, Seekwell's settings. */
  private record Opening(
      URI endpoint,
      StaticCredentialsProvider credentials,
      RequestCounter counter,
      Map<String, String> seekwell) {

    S3AsyncClient async() {
      return Clients.async(endpoint, credentials, counter);
    }

    S3AsyncClient crt() {
      return Clients.crt(endpoint, credentials, counter, configuration().client());
    }

    S3Client sync() {
      return Clients.sync(endpoint, credentials, counter);
    }

    S3SeekableInputStreamConfiguration configuration() {
      return SeekwellSettings.configuration(seekwell);
    }

    ReadPath s3a(S3aPath.Stream stream, int orcMinSeekSize) throws IOException {
      return new S3aPath(endpoint, credentials, counter, Store.BUCKET, stream, orcMinSeekSize);
    }
  }

  /** How a path is opened. */
  @FunctionalInterface
  private interface Opener {
    ReadPath open(Opening opening) throws IOException;
  }

  private final String pathName;
  private final Stack stack;
  private final Role role;
  private final Opener opener;

  Peer(String pathName, Stack stack, Role role, Opener opener) {
    if (!pathName.matches("[a-z0-9-]+")) {
      // --paths is split at commas and a path's variant follows an @ (nameOf).
      throw new IllegalArgumentException("A read path's name is lower case, digits and -");
    }
    this.pathName = pathName;
    this.stack = stack;
    this.role = role;
    this.opener = opener;
  }

  /**
   * A fresh read path whose clients {@code counter} counts; closing it closes them. The {@code
   * seekwell} settings (Seekwell's configuration keys) apply to Seekwell's paths, given as each
   * stack gives them: as they are, as {@code seekwell.*} FileIO properties, as {@code
   * fs.s3a.seekwell.*}; the peers' paths ignore them.
   */
  public ReadPath open(
      URI endpoint,
      StaticCredentialsProvider credentials,
      RequestCounter counter,
      Map<String, String> seekwell)
      throws IOException {
    return opener.open(new Opening(endpoint, credentials, counter, seekwell));
  }

  /** The name as the command line and the reports spell it. */
  public String pathName() {
    return pathName;
  }

  /** The stack the path reads through. */
  public Stack stack() {
    return stack;
  }

  /** Whether the path is one of Seekwell's. */
  public boolean isSeekwell() {
    return role == Role.SEEKWELL;
  }

  /** Whether the path is measured in the ORC workloads only. */
  public boolean orcOnly() {
    return false;
  }

  /**
   * The peers a Seekwell path replaces in its stack, the stack's default stream first; none for a
   * peer.
   */
  public List<Peer> peers() {
    if (!isSeekwell()) {
      return List.of();
    }
    return Stream.concat(
            stack.defaultStream().stream(), paths(stack).filter(peer -> peer.role == Role.PEER))
        .toList();
  }

  /**
   * For a Seekwell path that plugs into a stack with a stream of its own (a connector: Iceberg's
   * FileIO, S3A's stream factory), that stream; empty otherwise.
   */
  public Optional<Peer> stackDefault() {
    return isSeekwell() ? stack.defaultStream() : Optional.empty();
  }

  /** The name, as the command line and the reports spell it. */
  @Override
  public String toString() {
    return pathName;
  }

  /**
   * The name of the read path {@code path} measures: {@code path} without a suffix after {@code @}
   * (a variant of the path, such as {@code seekwell@disk}).
   */
  public static String nameOf(String path) {
    String name = path.trim();
    int at = name.indexOf('@');
    return at < 0 ? name : name.substring(0, at);
  }

  /** The read path {@code path} measures ({@link #nameOf}), if it names one. */
  public static Optional<Peer> find(String path) {
    String name = nameOf(path);
    return Arrays.stream(values()).filter(peer -> peer.pathName.equals(name)).findFirst();
  }

  /**
   * The read path {@code path} measures ({@link #nameOf}).
   *
   * @throws IllegalArgumentException if it names none
   */
  public static Peer named(String path) {
    return find(path).orElseThrow(() -> new IllegalArgumentException("Unknown read path: " + path));
  }

  /** Seekwell's connector paths, in order: those with a {@link #stackDefault}. */
  public static List<Peer> connectors() {
    return Arrays.stream(values()).filter(peer -> peer.stackDefault().isPresent()).toList();
  }

  /** Whether {@code path} names one of Seekwell's read paths, with or without a suffix. */
  public static boolean namesSeekwell(String path) {
    return find(path).filter(Peer::isSeekwell).isPresent();
  }

  /** The paths of {@code stack}, in order. */
  private static Stream<Peer> paths(Stack stack) {
    return Arrays.stream(values()).filter(peer -> peer.stack == stack);
  }
}
