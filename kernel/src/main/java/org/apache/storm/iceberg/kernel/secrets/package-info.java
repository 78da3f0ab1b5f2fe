/**
 * Internal to storm-iceberg: not an API, and changed without notice. Keeping secrets secret: which catalog properties are secrets, references to secrets resolved on the worker, and the redaction of every error the sink logs or reports.
 */
package org.apache.storm.iceberg.kernel.secrets;
