// The object the test files' precompiled header is built with (tests/CMakeLists.txt).
