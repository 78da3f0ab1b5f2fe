package org.apache.storm.iceberg.kernel.batch;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * What a file writer would refuse part-way through a row, checked before the row is written, so a
 * bad row costs only itself and never a broken file: a null in a required column, a value of a Java
 * class the writer cannot take for its column (a custom mapper's mistake), a decimal of another
 * scale or of too many digits, a fixed of another length. Nested structs, lists and maps are
 * checked through. Built once per schema and row model; checking a row allocates nothing unless it
 * is refused. Types it does not know are not checked.
 */
final class RowCheck {
  /** Checks no row: for a benchmark measuring what the checks cost. */
  static final RowCheck NONE = new RowCheck(null);

  private final StructCheck row;

  private RowCheck(StructCheck row) {
    this.row = row;
  }

  /** For rows of Iceberg's generic model ({@code Record}: {@code java.time} values). */
  static RowCheck generic(Schema schema) {
    return new RowCheck(new StructCheck("", schema.asStruct(), false));
  }

  /** For {@code InternalRow}s (days and microseconds as numbers). */
  static RowCheck internal(Schema schema) {
    return new RowCheck(new StructCheck("", schema.asStruct(), true));
  }

  /** The checks of one schema, each row model's built when a batch first asks for it. */
  static final class ForSchema {
    private final Schema schema;
    private final boolean off;
    private RowCheck generic;
    private RowCheck internal;

    /** @param off check nothing (a benchmark measuring what the checks cost) */
    ForSchema(Schema schema, boolean off) {
      this.schema = schema;
      this.off = off;
    }

    int schemaId() {
      return schema.schemaId();
    }

    RowCheck generic() {
      if (generic == null) {
        generic = off ? NONE : RowCheck.generic(schema);
      }
      return generic;
    }

    RowCheck internal() {
      if (internal == null) {
        internal = off ? NONE : RowCheck.internal(schema);
      }
      return internal;
    }
  }

  /**
   * @throws RecordRejectedException naming the column and what is wrong with its value
   */
  void verify(StructLike value) {
    if (row != null) {
      row.verify(value);
    }
  }

  /** Checks one value of one column (or element, key or value) that is not null. */
  private abstract static class ValueCheck {
    final String path;
    final Type type;

    ValueCheck(String path, Type type) {
      this.path = path;
      this.type = type;
    }

    abstract void verify(Object value);

    static ValueCheck of(String path, Type type, boolean internal) {
      return switch (type.typeId()) {
        case STRUCT -> new StructCheck(path, type.asStructType(), internal);
        case LIST -> new ListCheck(path, type.asListType(), internal);
        case MAP -> new MapCheck(path, type.asMapType(), internal);
        case DECIMAL -> new DecimalCheck(path, (Types.DecimalType) type);
        default -> new ClassCheck(path, type, classes(type, internal));
      };
    }

    /** The classes the writers take for a primitive type, or none when this check does not know. */
    private static Class<?>[] classes(Type type, boolean internal) {
      return switch (type.typeId()) {
        case BOOLEAN -> new Class<?>[] {Boolean.class};
        case INTEGER -> new Class<?>[] {Integer.class};
        case LONG -> new Class<?>[] {Long.class};
        case FLOAT -> new Class<?>[] {Float.class};
        case DOUBLE -> new Class<?>[] {Double.class};
        case STRING -> new Class<?>[] {CharSequence.class};
        case DATE -> new Class<?>[] {internal ? Integer.class : LocalDate.class};
        case TIME -> new Class<?>[] {internal ? Long.class : LocalTime.class};
        case TIMESTAMP, TIMESTAMP_NANO -> new Class<?>[] {internal ? Long.class : timestampClass(type)};
        case UUID -> new Class<?>[] {UUID.class, ByteBuffer.class, byte[].class};
        case FIXED, BINARY -> new Class<?>[] {ByteBuffer.class, byte[].class};
        default -> new Class<?>[0];
      };
    }

    private static Class<?> timestampClass(Type type) {
      boolean withZone = type instanceof Types.TimestampType ts ? ts.shouldAdjustToUTC()
          : ((Types.TimestampNanoType) type).shouldAdjustToUTC();
      return withZone ? OffsetDateTime.class : LocalDateTime.class;
    }

    final RecordRejectedException refuse(Object value, String why) {
      return new RecordRejectedException(path,
          "column '" + path + "' (" + type + ") " + why + ", got " + value.getClass().getName()
              + ": the file writer would refuse it");
    }
  }

  private static final class ClassCheck extends ValueCheck {
    private final Class<?>[] accepted;

    ClassCheck(String path, Type type, Class<?>[] accepted) {
      super(path, type);
      this.accepted = accepted;
    }

    @Override
    void verify(Object value) {
      if (accepted.length == 0) {
        return;
      }
      for (Class<?> javaClass : accepted) {
        if (javaClass.isInstance(value)) {
          if (type.typeId() == Type.TypeID.FIXED) {
            verifyLength(value);
          }
          return;
        }
      }
      throw refuse(value, "takes " + accepted[0].getName());
    }

    private void verifyLength(Object value) {
      int length = value instanceof byte[] bytes ? bytes.length : ((ByteBuffer) value).remaining();
      if (length != ((Types.FixedType) type).length()) {
        throw refuse(value, "takes exactly " + ((Types.FixedType) type).length() + " bytes, not " + length);
      }
    }
  }

  private static final class DecimalCheck extends ValueCheck {
    private final int precision;
    private final int scale;

    DecimalCheck(String path, Types.DecimalType type) {
      super(path, type);
      this.precision = type.precision();
      this.scale = type.scale();
    }

    @Override
    void verify(Object value) {
      if (!(value instanceof BigDecimal decimal)) {
        throw refuse(value, "takes java.math.BigDecimal");
      }
      if (decimal.scale() != scale || decimal.precision() > precision) {
        throw refuse(value, "takes a scale of " + scale + " and at most " + precision + " digits, not " + decimal.toPlainString());
      }
    }
  }

  private static final class StructCheck extends ValueCheck {
    private final ValueCheck[] fields;
    private final boolean[] required;
    private final String[] names;

    StructCheck(String path, Types.StructType struct, boolean internal) {
      super(path, struct);
      List<Types.NestedField> columns = struct.fields();
      this.fields = new ValueCheck[columns.size()];
      this.required = new boolean[columns.size()];
      this.names = new String[columns.size()];
      for (int i = 0; i < fields.length; i++) {
        Types.NestedField column = columns.get(i);
        names[i] = path.isEmpty() ? column.name() : path + "." + column.name();
        fields[i] = ValueCheck.of(names[i], column.type(), internal);
        required[i] = column.isRequired();
      }
    }

    @Override
    void verify(Object value) {
      if (!(value instanceof StructLike struct)) {
        throw refuse(value, "takes a struct (org.apache.iceberg.StructLike)");
      }
      if (struct.size() < fields.length) {
        throw new RecordRejectedException(path.isEmpty() ? null : path, (path.isEmpty() ? "the record" : "struct '" + path + "'")
            + " has " + struct.size() + " fields where the schema has " + fields.length + ": the file writer would refuse it");
      }
      for (int i = 0; i < fields.length; i++) {
        Object field = struct.get(i, Object.class);
        if (field != null) {
          fields[i].verify(field);
        } else if (required[i]) {
          throw new RecordRejectedException(names[i],
              "required column '" + names[i] + "' (" + fields[i].type + ") is null: the file writer would refuse it");
        }
      }
    }
  }

  private static final class ListCheck extends ValueCheck {
    private final ValueCheck element;
    private final boolean elementRequired;

    ListCheck(String path, Types.ListType list, boolean internal) {
      super(path, list);
      this.element = ValueCheck.of(path + ".element", list.elementType(), internal);
      this.elementRequired = list.isElementRequired();
    }

    @Override
    void verify(Object value) {
      if (!(value instanceof List<?> list)) {
        throw refuse(value, "takes a java.util.List");
      }
      for (Object item : list) {
        verifyNested(element, item, elementRequired);
      }
    }
  }

  private static final class MapCheck extends ValueCheck {
    private final ValueCheck key;
    private final ValueCheck mapValue;
    private final boolean valueRequired;

    MapCheck(String path, Types.MapType map, boolean internal) {
      super(path, map);
      this.key = ValueCheck.of(path + ".key", map.keyType(), internal);
      this.mapValue = ValueCheck.of(path + ".value", map.valueType(), internal);
      this.valueRequired = map.isValueRequired();
    }

    @Override
    void verify(Object value) {
      if (!(value instanceof Map<?, ?> map)) {
        throw refuse(value, "takes a java.util.Map");
      }
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        verifyNested(key, entry.getKey(), true);
        verifyNested(mapValue, entry.getValue(), valueRequired);
      }
    }
  }

  private static void verifyNested(ValueCheck check, Object value, boolean required) {
    if (value != null) {
      check.verify(value);
    } else if (required) {
      throw new RecordRejectedException(check.path,
          "'" + check.path + "' (" + check.type + ") is required but null: the file writer would refuse it");
    }
  }
}
