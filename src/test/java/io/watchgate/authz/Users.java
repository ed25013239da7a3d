package io.watchgate.authz;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * The users of the identity and access tests, as the token file of {@link RbacOn} names them: an administrator (group
 * {@code system:masters}), and alice, bob and carol, who may do only what RBAC objects grant them.
 */
public enum Users {

    ADMIN("admin-token-0123456789", "admin", "admin-uid", "system:masters"),
    ALICE("alice-token-0123456789", "alice", "alice-uid", "devs"),
    BOB("bob-token-0123456789", "bob", "bob-uid", "ops,devs"),
    CAROL("carol-token-0123456789", "carol", "carol-uid", "");

    private final String token;
    private final String name;
    private final String uid;
    private final String groups;

    Users(String token, String name, String uid, String groups) {
        this.token = token;
        this.name = name;
        this.uid = uid;
        this.groups = groups;
    }

    public String token() {
        return token;
    }

    public String userName() {
        return name;
    }

    /** A request sent by this user, with a JSON body. */
    public RequestSpecification request() {
        return given().header("Authorization", "Bearer " + token).contentType(ContentType.JSON);
    }

    /** Creates {@code body} in {@code collection} as this user, which must be allowed to (201). */
    public void created(String collection, String body) {
        Response response = request().body(body).post(collection);
        assertEquals(201, response.statusCode(), response.asString());
    }

    static String tokenFileLines() {
        StringBuilder lines = new StringBuilder();
        for (Users user : values()) {
            lines.append(user.token).append(',').append(user.name).append(',').append(user.uid);
            if (!user.groups.isEmpty()) {
                lines.append(",\"").append(user.groups).append('"');
            }
            lines.append('\n');
        }
        return lines.toString();
    }
}
