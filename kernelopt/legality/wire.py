"""Message framing between the gate and its sandbox: plain pickle over multiprocessing.connection
(not multiprocessing's reducers, which would move tensors through shared memory)."""
import pickle


def send(conn, message) -> None:
    conn.send_bytes(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))


def recv(conn):
    return pickle.loads(conn.recv_bytes())
