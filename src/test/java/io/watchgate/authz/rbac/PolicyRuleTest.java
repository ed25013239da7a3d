package io.watchgate.authz.rbac;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.watchgate.authn.UserInfo;
import io.watchgate.authz.Attributes;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How one rule matches a request: kube's RuleAllows, row by row. */
class PolicyRuleTest {

    private static final UserInfo ANYONE = Rbac.person("anyone");

    @ParameterizedTest(name = "{0} {1} {2}/{3}/{4} named [{5}] -> {6}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # rule                                                                         | verb   | group | resource    | sub    | name | allowed
            {'verbs':['get'],'apiGroups':[''],'resources':['pods']}                         | get    | ''    | pods        | ''     | ''   | true
            {'verbs':['get'],'apiGroups':[''],'resources':['pods']}                         | list   | ''    | pods        | ''     | ''   | false
            {'verbs':['*'],'apiGroups':[''],'resources':['pods']}                           | delete | ''    | pods        | ''     | a    | true
            {'verbs':['get'],'apiGroups':['apps'],'resources':['pods']}                     | get    | ''    | pods        | ''     | ''   | false
            {'verbs':['get'],'apiGroups':['*'],'resources':['deployments']}                 | get    | apps  | deployments | ''     | ''   | true
            {'verbs':['get'],'apiGroups':[''],'resources':['*']}                            | get    | ''    | secrets     | ''     | ''   | true
            {'verbs':['get'],'apiGroups':[''],'resources':['*']}                            | get    | ''    | pods        | log    | ''   | true
            {'verbs':['get'],'apiGroups':[''],'resources':['pods']}                         | get    | ''    | pods        | log    | ''   | false
            {'verbs':['get'],'apiGroups':[''],'resources':['pods/log']}                     | get    | ''    | pods        | log    | ''   | true
            {'verbs':['get'],'apiGroups':[''],'resources':['pods/log']}                     | get    | ''    | pods        | ''     | ''   | false
            {'verbs':['get'],'apiGroups':[''],'resources':['*/log']}                        | get    | ''    | pods        | log    | ''   | true
            {'verbs':['get'],'apiGroups':[''],'resources':['*/log']}                        | get    | ''    | pods        | status | ''   | false
            {'verbs':['get'],'apiGroups':[''],'resources':['*/log']}                        | get    | ''    | log         | ''     | ''   | false
            {'verbs':['get'],'apiGroups':[''],'resources':['pods/*']}                       | get    | ''    | pods        | log    | ''   | false
            {'verbs':['get'],'apiGroups':[''],'resources':['pods'],'resourceNames':['a']}   | get    | ''    | pods        | ''     | a    | true
            {'verbs':['get'],'apiGroups':[''],'resources':['pods'],'resourceNames':['a']}   | get    | ''    | pods        | ''     | b    | false
            {'verbs':['list'],'apiGroups':[''],'resources':['pods'],'resourceNames':['a']}  | list   | ''    | pods        | ''     | ''   | false
            {'verbs':['get'],'apiGroups':[''],'resources':['pods'],'resourceNames':['*']}   | get    | ''    | pods        | ''     | a    | false
            {'verbs':['get'],'nonResourceURLs':['*']}                                       | get    | ''    | pods        | ''     | ''   | false
            {'apiGroups':[''],'resources':['pods']}                                         | get    | ''    | pods        | ''     | ''   | false
            {'verbs':['get'],'resources':['pods']}                                          | get    | ''    | pods        | ''     | ''   | false
            {'verbs':'get','apiGroups':[''],'resources':['pods']}                           | get    | ''    | pods        | ''     | ''   | false
            {'verbs':['get',7],'apiGroups':[''],'resources':['pods']}                       | get    | ''    | pods        | ''     | ''   | true
            """)
    void resourceRequests(String rule, String verb, String group, String resource, String subresource, String name,
            boolean allowed) {
        Attributes request = Attributes.resource(ANYONE, verb, group, "v1", resource, subresource, "ns", name);
        assertEquals(allowed, PolicyRule.from(Rbac.rule(rule)).allows(request));
    }

    @ParameterizedTest(name = "{0} {1} {2} -> {3}")
    @CsvSource(delimiter = '|', textBlock = """
            # rule                                                   | verb | path              | allowed
            {'verbs':['get'],'nonResourceURLs':['/healthz']}          | get  | /healthz          | true
            {'verbs':['get'],'nonResourceURLs':['/healthz']}          | post | /healthz          | false
            {'verbs':['get'],'nonResourceURLs':['/healthz']}          | get  | /healthz/ready    | false
            {'verbs':['get'],'nonResourceURLs':['/healthz*']}         | get  | /healthz/ready    | true
            {'verbs':['get'],'nonResourceURLs':['/healthz/*']}        | get  | /healthz          | false
            {'verbs':['get'],'nonResourceURLs':['/apis/**']}          | get  | /apis/x           | true
            {'verbs':['get'],'nonResourceURLs':['*']}                 | get  | /anything/at/all  | true
            {'verbs':['*'],'nonResourceURLs':['/version']}            | get  | /version          | true
            {'verbs':['get'],'apiGroups':['*'],'resources':['*']}     | get  | /version          | false
            """)
    void nonResourceRequests(String rule, String verb, String path, boolean allowed) {
        assertEquals(allowed, PolicyRule.from(Rbac.rule(rule)).allows(Attributes.nonResource(ANYONE, verb, path)));
    }

    @Test
    void compactStringIsKubesFormatWithEmptyListsLeftOut() {
        PolicyRule rule = PolicyRule.from(Rbac.rule(
                "{'verbs':['get','list'],'apiGroups':[''],'resources':['pods'],'resourceNames':['a\"b']}"));
        assertEquals("{APIGroups:[\"\"], Resources:[\"pods\"], ResourceNames:[\"a\\\"b\"], Verbs:[\"get\" \"list\"]}",
                rule.compactString());
        assertEquals("{NonResourceURLs:[\"/healthz\"], Verbs:[\"get\"]}",
                new PolicyRule(List.of("get"), List.of(), List.of(), List.of(), List.of("/healthz")).compactString());
    }

    @Test
    void goQuotingEscapesAsGoDoes() {
        assertEquals("\"tab\\there\\nnew \\x01 é\"", GoQuoted.of("tab\there\nnew \u0001 é"));
        assertEquals("\"a\\u00a0b \\u200b😀\"", GoQuoted.of("a\u00a0b \u200b😀"));
        assertEquals("[]", GoQuoted.list(List.of()));
    }

    @Test
    void aRoleWithoutRulesHasNone() {
        assertEquals(List.of(), PolicyRule.listFrom(Rbac.json("{}").path("rules")));
        assertEquals(List.of(), PolicyRule.listFrom(Rbac.json("{'rules':{}}").path("rules")));
    }
}
