package org.apache.storm.iceberg.kernel;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/** Masks secrets in catalog properties before they reach a log line, a message or toString(). */
public final class Redaction {
  private static final Pattern SECRET_KEY =
      Pattern.compile(".*(credential|token|password|secret|key|auth|signature).*");

  private Redaction() {}

  public static boolean isSecret(String propertyName) {
    return SECRET_KEY.matcher(propertyName.toLowerCase(Locale.ROOT)).matches();
  }

  /** URI user info ({@code //user:pass@}) and secret-named query parameters ({@code ?password=x}). */
  private static final Pattern URI_USER_INFO = Pattern.compile("//[^/@\\s]+@");
  private static final Pattern SECRET_QUERY_PARAMETER =
      Pattern.compile("(?i)([?&;](?:[^=&;]*(?:credential|token|password|secret|key|auth|signature)[^=&;]*)=)[^&;]*");

  public static Map<String, String> redact(Map<String, String> properties) {
    Map<String, String> shown = new TreeMap<>();
    properties.forEach((key, value) -> shown.put(key, isSecret(key) ? "****" : redactUri(value)));
    return shown;
  }

  /** Masks credentials a URI-like value may carry, leaving the rest readable. */
  static String redactUri(String value) {
    if (value == null) {
      return null;
    }
    String masked = URI_USER_INFO.matcher(value).replaceAll("//****@");
    return SECRET_QUERY_PARAMETER.matcher(masked).replaceAll("$1****");
  }
}
