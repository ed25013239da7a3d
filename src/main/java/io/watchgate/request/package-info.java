/**
 * Each request read once, before anything acts on it, into the attributes Kubernetes judges a request by: verb
 * (list, watch, deletecollection and the rest), API group and version, resource, subresource, namespace and name, or
 * that it is no resource request at all. kube-apiserver does this in its first filter (WithRequestInfo), and its
 * authorization, admission, audit, metrics and routing all read that one result; here the resource API's routing,
 * the watch route and the metrics read {@link io.watchgate.request.RequestInfo}, and authorization, admission and
 * audit are to read it too, rather than a path. Also here: the order of watchgate's own routes, since which one sees
 * a request first is part of how it is read and answered.
 */
package io.watchgate.request;
