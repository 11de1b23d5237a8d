/**
 * End-to-end tests of the whole stack against a real MinIO server. Built in a later step; this
 * module currently holds no code.
 */
package io.seekwell.it;
