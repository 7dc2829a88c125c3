// The few libmicrohttpd calls Swift cannot make itself: MHD_start_daemon, MHD_get_daemon_info and
// MHD_get_connection_info are variadic, and Swift cannot call C variadic functions.
#ifndef GLOSSA_MHD_H
#define GLOSSA_MHD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// How to start the daemon. Every field is required; the Swift side supplies its defaults.
struct glossa_mhd_settings {
  /// Numeric IPv4 or IPv6 address to bind ("127.0.0.1", "::1", "0.0.0.0").
  const char *host;
  /// TCP port; 0 picks a free one (read it back with glossa_mhd_bound_port).
  uint16_t port;
  /// Polling threads (MHD_OPTION_THREAD_POOL_SIZE); 1 means one internal polling thread.
  unsigned int threads;
  /// MHD's own connection limit (MHD_OPTION_CONNECTION_LIMIT). At it MHD stops polling the
  /// listening socket and new clients wait in the kernel's backlog, so the Swift side passes a
  /// value above its own limit, which it enforces by refusing at once.
  unsigned int connection_limit;
  /// Most simultaneous connections from one IP address, refused at accept
  /// (MHD_OPTION_PER_IP_CONNECTION_LIMIT); 0: no limit.
  unsigned int per_ip_connection_limit;
  /// Seconds an idle connection may stay open (MHD_OPTION_CONNECTION_TIMEOUT).
  unsigned int connection_timeout;
  /// Bytes of per-connection memory for the request line and headers
  /// (MHD_OPTION_CONNECTION_MEMORY_LIMIT); bounds the header size.
  size_t connection_memory_limit;
  /// MHD_OPTION_STRICT_FOR_CLIENT: -1, 0 or 1 (see HTTPServer.swift for the value used and why).
  int strictness;
};

/// The callback MHD calls with the raw request URI (path and query, not yet unescaped) before it
/// parses anything; its return value becomes the request's context pointer.
typedef void *(*glossa_mhd_uri_logger)(void *cls, const char *uri, struct MHD_Connection *connection);

/// Starts a poll() daemon with internal polling threads and suspend/resume enabled.
/// Returns NULL and writes a reason into `error` when the address is invalid or binding fails.
struct MHD_Daemon *glossa_mhd_start(const struct glossa_mhd_settings *settings,
                                    MHD_AccessHandlerCallback handler,
                                    MHD_RequestCompletedCallback completed,
                                    glossa_mhd_uri_logger uri_logger,
                                    MHD_NotifyConnectionCallback notify_connection,
                                    void *cls,
                                    char *error, size_t error_size);

/// The port the daemon listens on (the chosen one when 0 was asked for); 0 if unknown.
uint16_t glossa_mhd_bound_port(struct MHD_Daemon *daemon);

/// Writes the connection's peer address in numeric form ("127.0.0.1", "::1") into `out`
/// (NUL-terminated); returns its length, or 0 when unknown or `out` is too small.
size_t glossa_mhd_client_address(struct MHD_Connection *connection, char *out, size_t out_size);

/// The connection's socket (MHD_CONNECTION_INFO_CONNECTION_FD); -1 if unknown.
int glossa_mhd_connection_fd(struct MHD_Connection *connection);

#endif
