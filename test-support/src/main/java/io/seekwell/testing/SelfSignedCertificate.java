package io.seekwell.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for {@code 127.0.0.1} and {@code localhost}, made with the JDK's {@code
 * keytool} and written as PEM files in the layout MinIO reads from its {@code --certs-dir} ({@code
 * public.crt}, {@code private.key}).
 */
public final class SelfSignedCertificate {

  private static final char[] PASSWORD = "seekwell".toCharArray();

  private final Path directory;
  private final Certificate certificate;

  private SelfSignedCertificate(Path directory, Certificate certificate) {
    this.directory = directory;
    this.certificate = certificate;
  }

  /** Creates a key pair and certificate in {@code directory}. */
  public static SelfSignedCertificate create(Path directory) throws IOException {
    Path keyStoreFile = directory.resolve("keystore.p12");
    runKeytool(keyStoreFile);
    try (InputStream in = Files.newInputStream(keyStoreFile)) {
      KeyStore keyStore = KeyStore.getInstance("PKCS12");
      keyStore.load(in, PASSWORD);
      Key key = keyStore.getKey("server", PASSWORD);
      Certificate certificate = keyStore.getCertificate("server");
      Files.writeString(directory.resolve("private.key"), pem("PRIVATE KEY", key.getEncoded()));
      Files.writeString(
          directory.resolve("public.crt"), pem("CERTIFICATE", certificate.getEncoded()));
      return new SelfSignedCertificate(directory, certificate);
    } catch (GeneralSecurityException e) {
      throw new IOException("Cannot read the key store keytool wrote: " + keyStoreFile, e);
    }
  }

  /** The folder holding {@code public.crt} and {@code private.key}. */
  public Path directory() {
    return directory;
  }

  /** A trust store (of the JVM's default type) holding this certificate only. */
  public KeyStore trustStore() {
    try {
      KeyStore trustStore = KeyStore.getInstance(KeyStore.getDefaultType());
      trustStore.load(null, null);
      trustStore.setCertificateEntry("server", certificate);
      return trustStore;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("Cannot build a trust store for the test certificate", e);
    }
  }

  /** Trust managers that trust this certificate only. */
  public TrustManager[] trustManagers() {
    try {
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trustStore());
      return factory.getTrustManagers();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Cannot build trust managers for the test certificate", e);
    }
  }

  private static void runKeytool(Path keyStoreFile) throws IOException {
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    List<String> command =
        List.of(
            keytool.toString(),
            "-genkeypair",
            "-alias",
            "server",
            "-keyalg",
            "EC",
            "-groupname",
            "secp256r1",
            "-sigalg",
            "SHA256withECDSA",
            "-validity",
            "2",
            "-dname",
            "CN=127.0.0.1",
            "-ext",
            "SAN=ip:127.0.0.1,dns:localhost",
            "-storetype",
            "PKCS12",
            "-keystore",
            keyStoreFile.toString(),
            "-storepass",
            new String(PASSWORD),
            "-keypass",
            new String(PASSWORD));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IOException("keytool failed to make a test certificate: " + output);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while keytool made a test certificate", e);
    }
  }

  private static String pem(String type, byte[] der) {
    String body =
        Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
  }
}
