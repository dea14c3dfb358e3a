// Answers given before any route runs, as problem+json like every other error: the router's (a path segment over
// the longest name or id, a malformed percent-encoding) and Node's own HTTP parser's (headers over its size limit,
// a request that is not HTTP), which Fastify otherwise answers with a JSON body of its own shape.
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { problem, sendProblem, toProblem, PROBLEM_TYPE, type Problem } from './problem.js';

/** Fastify's `frameworkErrors`: the router's refusals, without echoing the path back. */
export function routerErrorHandler(maxParamLength: number) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      return sendProblem(
        reply,
        problem(
          414,
          'BadRequest',
          `a path segment is longer than ${maxParamLength} characters, longer than any name or job id`,
        ),
      );
    }
    if (err.code === 'FST_ERR_BAD_URL')
      return sendProblem(reply, problem(400, 'BadRequest', 'the path is not valid percent-encoding'));
    return sendProblem(reply, toProblem(err, request));
  };
}

/** Fastify's `clientErrorHandler`: Node's parser refused the request before Fastify saw it. */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  // The peer hung up, or the socket is gone: nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let p: Problem;
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    p = problem(
      431,
      'BadRequest',
      `the request line and headers are larger than the ${Math.floor(maxHeaderSize / 1024)} KiB this server reads`,
    );
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    p = problem(408, 'BadRequest', 'the request did not arrive in time');
  } else {
    p = problem(400, 'BadRequest', 'the request is not well-formed HTTP/1.1');
  }
  if (socket.writable) {
    const body = JSON.stringify(p);
    socket.write(
      `HTTP/1.1 ${p.status} ${STATUS_CODES[p.status]}\r\n` +
        `Content-Type: ${PROBLEM_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n` +
        body,
    );
  }
  socket.destroy(err);
}
