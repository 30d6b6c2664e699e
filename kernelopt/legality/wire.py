"""Message framing between the gate and its sandbox: plain pickle over multiprocessing.connection
(not multiprocessing's reducers, which would move tensors through shared memory behind our back).

Case data does not travel in messages: it lives in shared buffers (shared.py) whose file descriptors
follow a message as SCM_RIGHTS on the same Unix socket (`send_fds` / `recv_fds`). Connection reads
exactly one framed message, so the descriptors are the next thing in the stream."""
import pickle
import socket


def send(conn, message) -> None:
    conn.send_bytes(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))


def recv(conn):
    return pickle.loads(conn.recv_bytes())


def send_fds(sock: socket.socket, fds: list[int]) -> None:
    socket.send_fds(sock, [b"F"], list(fds))


def recv_fds(sock: socket.socket, count: int) -> list[int]:
    _, fds, _, _ = socket.recv_fds(sock, 1, count)
    if len(fds) != count:
        raise OSError(f"expected {count} file descriptor(s), received {len(fds)}")
    return list(fds)
