package io.watchgate.tables;

import java.util.List;
import java.util.Map;

/** The columns kube-apiserver's printer gives a Lease: who holds it. */
final class CoordinationColumns {

    private CoordinationColumns() {
    }

    static final Map<String, List<Column>> BY_RESOURCE = Map.of(
            "leases.coordination.k8s.io", List.of(CoreColumns.NAME,
                    Column.of("Holder", "string", "holderIdentity contains the identity of the holder of a current "
                            + "lease.", (o, now) -> o.path("spec").path("holderIdentity").asText("")),
                    CoreColumns.AGE));
}
