package io.webindex.core.history;

import io.webindex.core.model.Link;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Content signatures of page versions (docs/semantics.md).
 *
 * <p>A record's own digest (WAT {@code Entity-Digest} or {@code WARC-Payload-Digest}, a JSON line's
 * {@code digest}) is normalised to {@code <algo>:<BASE32>}: the algorithm in lower case without a
 * dash ({@code sha1}, {@code sha256}, {@code md5}), the digest bytes in RFC 4648 base32, upper
 * case, without padding. Accepted inputs: {@code <algo>:<base32>} or {@code <algo>:<hex>} with
 * {@code algo} one of {@code sha1 sha-1 sha256 sha-256 md5} in any case, base32 with or without
 * {@code =} padding and hex in any case; or a bare 40-digit hex or 32-character base32 value (then
 * SHA-1). So {@code sha1:f6tcam4v…}, {@code SHA-1:2fa6…} (hex of the same bytes) and {@code
 * F6TCAM4V…} are one signature. Anything else is not a digest: the reader counts it and falls back
 * to the content signature.
 *
 * <p>The content signature, for a record without a digest: {@code idx:} + base32 of the SHA-1 of
 * the UTF-8 bytes of the cleaned title followed, for each deduplicated link in link order, by
 * {@code \n<target URI key>\t<cleaned anchor>}. It therefore changes exactly when what the index
 * reads from the page changes. A deletion's signature is {@code ""}.
 */
public final class Signatures {
  /** The prefix of a content signature. */
  public static final String CONTENT_PREFIX = "idx:";

  private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

  private Signatures() {}

  /** The normalised form of a record digest, or empty when it is not one (see the class). */
  public static Optional<String> normalise(String digest) {
    if (digest == null) {
      return Optional.empty();
    }
    String s = digest.strip();
    String algo;
    String value;
    int colon = s.indexOf(':');
    if (colon >= 0) {
      algo = algorithm(s.substring(0, colon));
      value = s.substring(colon + 1);
      if (algo == null) {
        return Optional.empty();
      }
    } else {
      algo = "sha1";
      value = s;
      if (value.length() != 40 && value.length() != 32) {
        return Optional.empty();
      }
    }
    byte[] bytes = decode(value, length(algo));
    return bytes == null ? Optional.empty() : Optional.of(algo + ":" + base32(bytes));
  }

  /** The content signature of a live page version (see the class). */
  public static String content(String title, List<Link> links) {
    StringBuilder sb = new StringBuilder(title.length() + 48 * links.size());
    sb.append(title);
    for (Link l : links) {
      sb.append('\n').append(l.key()).append('\t').append(l.anchor());
    }
    return CONTENT_PREFIX + base32(sha1(sb.toString().getBytes(StandardCharsets.UTF_8)));
  }

  /** RFC 4648 base32 of {@code bytes}, upper case, without padding. */
  public static String base32(byte[] bytes) {
    StringBuilder sb = new StringBuilder((bytes.length * 8 + 4) / 5);
    int buffer = 0;
    int bits = 0;
    for (byte b : bytes) {
      buffer = (buffer << 8) | (b & 0xff);
      bits += 8;
      while (bits >= 5) {
        sb.append(ALPHABET.charAt((buffer >> (bits - 5)) & 31));
        bits -= 5;
      }
    }
    if (bits > 0) {
      sb.append(ALPHABET.charAt((buffer << (5 - bits)) & 31));
    }
    return sb.toString();
  }

  private static String algorithm(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "sha1", "sha-1" -> "sha1";
      case "sha256", "sha-256" -> "sha256";
      case "md5" -> "md5";
      default -> null;
    };
  }

  private static int length(String algo) {
    return switch (algo) {
      case "sha1" -> 20;
      case "sha256" -> 32;
      default -> 16;
    };
  }

  /** {@code value} as {@code n} bytes in hex or in canonical base32; null when it is neither. */
  private static byte[] decode(String value, int n) {
    if (value.length() == 2 * n && value.chars().allMatch(Signatures::isHexDigit)) {
      byte[] out = new byte[n];
      for (int i = 0; i < n; i++) {
        out[i] =
            (byte)
                (Character.digit(value.charAt(2 * i), 16) << 4
                    | Character.digit(value.charAt(2 * i + 1), 16));
      }
      return out;
    }
    String b32 = value.toUpperCase(Locale.ROOT);
    int end = b32.length();
    while (end > 0 && b32.charAt(end - 1) == '=') {
      end--;
    }
    int chars = (n * 8 + 4) / 5;
    if (end != chars || (end < b32.length() && b32.length() % 8 != 0)) {
      return null;
    }
    byte[] out = new byte[n];
    int buffer = 0;
    int bits = 0;
    int k = 0;
    for (int i = 0; i < end; i++) {
      int d = ALPHABET.indexOf(b32.charAt(i));
      if (d < 0) {
        return null;
      }
      buffer = (buffer << 5) | d;
      bits += 5;
      if (bits >= 8) {
        out[k++] = (byte) (buffer >> (bits - 8));
        bits -= 8;
        buffer &= (1 << bits) - 1;
      }
    }
    // the unused low bits of the last character must be zero: one value, one spelling
    return buffer == 0 ? out : null;
  }

  private static boolean isHexDigit(int c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  private static byte[] sha1(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-1").digest(data);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-1", e);
    }
  }
}
