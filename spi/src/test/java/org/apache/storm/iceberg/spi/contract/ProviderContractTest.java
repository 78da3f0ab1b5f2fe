/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *   http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing,
 * software distributed under the License is distributed on an
 * "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY
 * KIND, either express or implied.  See the License for the
 * specific language governing permissions and limitations
 * under the License.
 */

package org.apache.storm.iceberg.spi.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.apache.storm.iceberg.spi.ProviderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every provider of one plug-in kind must do to be found and configured: each kind's contract
 * test extends this class, and each provider module extends that once per provider it ships.
 *
 * @param <T> what the provider creates
 * @param <F> the kind's factory interface
 */
public abstract class ProviderContractTest<T, F extends ProviderFactory<T>> {
  @TempDir protected Path dir;

  /** The kind's factory interface, for example {@code WalStoreFactory.class}. */
  protected abstract Class<F> kind();

  /** The name the provider under test is registered under. */
  protected abstract String providerName();

  /** The properties the provider under test is created with; {@link #dir} is a fresh directory. */
  protected Map<String, String> properties() {
    return Map.of();
  }

  /** Whether the provider refuses properties it does not know; a format passes any to Iceberg. */
  protected boolean refusesUnknownProperties() {
    return true;
  }

  /** The provider under test, found as the sink finds it: through {@link ServiceLoader}. */
  protected final F factory() {
    return registered().get(0);
  }

  protected final T create() {
    return factory().create(properties());
  }

  private List<F> registered() {
    return ServiceLoader.load(kind(), getClass().getClassLoader()).stream()
        .map(ServiceLoader.Provider::get)
        .filter(factory -> factory.name().equals(providerName()))
        .toList();
  }

  @Test
  public void theProviderIsRegisteredOnceUnderItsName() {
    assertThat(registered()).as("%s providers named '%s'", kind().getSimpleName(), providerName()).hasSize(1);
  }

  @Test
  public void anUnknownPropertyIsRefusedNamingIt() {
    assumeTrue(refusesUnknownProperties(), "the provider takes any property");
    Map<String, String> properties = new HashMap<>(properties());
    properties.put("no-such-property", "1");
    assertThatThrownBy(() -> factory().create(properties))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + providerName() + "'")
        .hasMessageContaining("[no-such-property]");
  }

  /** {@code object} after a Java serialization round trip, as a plug-in travels in a topology. */
  @SuppressWarnings("unchecked")
  protected static <S> S serializedAndBack(S object) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
        out.writeObject(object);
      }
      try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
        return (S) in.readObject();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }
}
